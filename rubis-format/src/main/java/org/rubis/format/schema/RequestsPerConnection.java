package org.rubis.format.schema;

import java.util.Map;

/**
 * The server's {@code requests_per_connection}: how many requests each connection carried.
 */
public record RequestsPerConnection(long min, long max, double mean, Map<String, Long> histogram) {}
