package org.rubis.lab.reproduce;

/**
 * One published finding, reproduced by runs of the client. Each implementation teaches one effect:
 * it picks the runs (small at quick scale), reads them back with the analysis, plots them in the
 * shape of the paper's figure and says whether the effect's shape held, and why.
 */
public interface Experiment {

    /** Short name used on the command line and as the directory of its runs, e.g. {@code connection-sharing}. */
    String name();

    String title();

    /** The paper and figure or table, with the FINDINGS.md item. */
    String source();

    /** The published figures, in the project's words (docs/FINDINGS.md). */
    String published();

    /**
     * Why this experiment cannot run against a given URL, or null when it can: experiments that need
     * the embedded server's ground truth, CPU time or server models are skipped with {@code --target}.
     */
    default String needsOwnServer() {
        return null;
    }

    Finding run(Lab lab) throws Exception;
}
