package org.rubis.client.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rubis.format.schema.SummaryJson;

/**
 * One part of the run's summary: its keys in summary.json and its lines in summary.txt. The lines are read back
 * from the keys as written (as the schema's records), so that the text says what the file says, also once a run hook has replaced the
 * response times with the wire's ({@link Summary#add}).
 */
interface SummaryPart {

    /** Adds this part's keys to summary.json's root, in their order. */
    void json(ObjectNode root);

    /** Appends this part's lines to summary.txt (none by default). */
    default void text(SummaryJson s, StringBuilder b) {}
}
