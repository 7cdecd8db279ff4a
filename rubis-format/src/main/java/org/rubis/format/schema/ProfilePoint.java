package org.rubis.format.schema;

/**
 * One of {@code profile.points}: a point of the profile file.
 */
public record ProfilePoint(double atS, double value, String mix, double thinkScale, long line) {}
