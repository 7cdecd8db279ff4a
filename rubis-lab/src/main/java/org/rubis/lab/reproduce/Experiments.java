package org.rubis.lab.reproduce;

import java.util.List;

/** The experiments in the order of docs/FINDINGS.md and of the report. */
final class Experiments {

    private Experiments() {}

    static List<Experiment> all() {
        return List.of(
                new ErrorVersusLoad(),
                new HeapCapacity(),
                new MillisecondTimers(),
                new ConnectionSharing(),
                new FlashCrowd(),
                new ClosedVersusOpen(),
                new PrinciplesAB(),
                new TlsHandshakes());
    }

    static String names() {
        return String.join(", ", all().stream().map(Experiment::name).toList());
    }
}
