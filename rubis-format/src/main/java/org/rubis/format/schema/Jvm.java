package org.rubis.format.schema;

import java.util.List;

/**
 * summary.json {@code jvm}: the JVM that ran the client.
 */
public record Jvm(
        String java,
        String vendor,
        String version,
        String vm,
        boolean interpretedOnly,
        String profile,
        long maxHeapBytes,
        List<String> gc,
        List<String> flags,
        long availableProcessors) {}
