package org.rubis.analysis.merge;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Opens {@link MergedStats.Cell} to the comparison of the old latency classes with the one that replaces them. */
public final class OldMergedCell {
    private final MergedStats.Cell cell = new MergedStats.Cell();

    public void add(long ns, boolean error) {
        cell.add(ns, error);
    }

    public ObjectNode write() {
        return cell.write(JsonNodeFactory.instance.objectNode());
    }
}
