package org.rubis.client.reproduce;

/**
 * A plot written next to the report.
 *
 * @param file    PNG file name, relative to the reproduction directory
 * @param caption what it shows and how to read it
 */
public record Figure(String file, String caption) {}
