package org.rubis.format.schema;

/**
 * One of summary.json {@code assertions}: an assertion of {@code run --assert} and whether it held.
 */
public record AssertionResult(String assertion, String metric, double actual, boolean passed, String reason) {}
