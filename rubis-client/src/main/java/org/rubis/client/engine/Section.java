package org.rubis.client.engine;

import com.fasterxml.jackson.databind.JsonNode;
import org.rubis.client.report.SummarySection;

/** A section of the summary the engine's own observers build: its key, JSON and text, and the clock it publishes. */
record Section(String key, JsonNode json, String text, String publishedClock) implements SummarySection {}
