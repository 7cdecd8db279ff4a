package org.rubis.analysis;

/** Opens {@link RunAnalysis.Bin} to the comparison of the old latency classes with the one that replaces them. */
public final class OldBin {
    private final RunAnalysis.Bin bin = new RunAnalysis.Bin();

    public void add(long ns, boolean error) {
        bin.add(ns, error);
    }

    public RunAnalysis.Bin bin() {
        return bin;
    }
}
