package org.rubis.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The experiments reproduce names on its command line and in its report. */
class ExperimentsTest {

    @Test
    void everyExperimentHasANameTitleSourceAndPublishedFigure() {
        assertEquals(8, Experiments.all().size());
        for (Experiment e : Experiments.all()) {
            assertTrue(
                    e.name().matches("[a-z-]+")
                            && !e.title().isBlank()
                            && !e.source().isBlank()
                            && e.published().length() > 40,
                    e.name());
        }
        assertEquals(
                8, Experiments.all().stream().map(Experiment::name).distinct().count());
    }
}
