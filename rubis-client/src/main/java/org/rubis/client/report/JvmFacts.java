package org.rubis.client.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The exact JVM the client ran in (summary.json's {@code jvm}: executable, version, collector, flags, heap) and
 * what about it makes a measurement doubtful, said before the run and kept in the summary's warnings.
 */
public final class JvmFacts implements SummaryPart {

    /** Rule of thumb from our capacity runs: below this much heap per emulated user, expect GC trouble. */
    static final long HEAP_PER_USER_BYTES = 24 * 1024;

    @Override
    public void json(ObjectNode root) {
        root.set("jvm", json());
    }

    static ObjectNode json() {
        ObjectNode j = JsonNodeFactory.instance.objectNode();
        j.put("java", ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"));
        j.put("vendor", System.getProperty("java.vendor"));
        j.put("version", Runtime.version().toString());
        j.put("vm", System.getProperty("java.vm.name") + " (" + System.getProperty("java.vm.info") + ")");
        j.put("interpreted_only", interpretedOnly());
        j.put("profile", System.getProperty("rubis.jvm.profile", "(this JVM, no profile)"));
        j.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
        ArrayNode gcs = j.putArray("gc");
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcs.add(gc.getName());
        }
        ArrayNode flags = j.putArray("flags");
        ManagementFactory.getRuntimeMXBean().getInputArguments().forEach(flags::add);
        j.put("available_processors", Runtime.getRuntime().availableProcessors());
        return j;
    }

    /** True in a JVM that runs interpreted only ({@code -Xint}): there is nothing to compile. */
    public static boolean interpretedOnly() {
        return String.valueOf(System.getProperty("java.vm.info")).contains("interpreted");
    }

    /** Warnings about the JVM itself, given at the start of a run and kept in the summary. */
    public static List<String> warnings(int users, boolean closed) {
        List<String> w = new ArrayList<>();
        if (interpretedOnly()) {
            w.add("this JVM runs interpreted only (-Xint): the client's CPU per request is many times higher and its"
                    + " response times may be inflated");
        }
        long max = Runtime.getRuntime().maxMemory();
        if (closed && max < (long) users * HEAP_PER_USER_BYTES) {
            w.add(String.format(
                    Locale.ROOT,
                    "the heap (%d MiB) is small for %d users (%d KiB each); expect GC pauses or OutOfMemoryError",
                    max >> 20,
                    users,
                    max / Math.max(1, users) >> 10));
        }
        return w;
    }
}
