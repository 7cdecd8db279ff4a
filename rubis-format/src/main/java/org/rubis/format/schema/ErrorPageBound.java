package org.rubis.format.schema;

/**
 * summary.json {@code error_page_bound}: how often the bound on ERROR pages without a think time acted.
 */
public record ErrorPageBound(long pagesWithoutThink, long thinkTimesAdded, long sessions) {}
