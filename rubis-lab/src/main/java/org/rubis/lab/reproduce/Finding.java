package org.rubis.lab.reproduce;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;

/**
 * What one experiment found: our figure beside the published one, the verdict and its reason,
 * the plots, the numbers behind them and the run directories they came from.
 */
public record Finding(
        String name,
        String title,
        String source,
        String published,
        String measured,
        Verdict verdict,
        String why,
        List<Figure> figures,
        ObjectNode data,
        List<Path> runs) {

    public static Finding of(
            Experiment e,
            String measured,
            Verdict verdict,
            String why,
            List<Figure> figures,
            ObjectNode data,
            List<Path> runs) {
        return new Finding(
                e.name(),
                e.title(),
                e.source(),
                e.published(),
                measured,
                verdict,
                why,
                List.copyOf(figures),
                data,
                List.copyOf(runs));
    }

    /** Not run, with the reason. */
    public static Finding skipped(Experiment e, String reason) {
        return of(
                e,
                "not measured",
                Verdict.SKIPPED,
                reason,
                List.of(),
                JsonNodeFactory.instance.objectNode(),
                List.of());
    }

    /** A run failed: what failed and where to look. */
    public static Finding failed(Experiment e, String reason, List<Path> runs) {
        return of(e, "not measured", Verdict.FAILED, reason, List.of(), JsonNodeFactory.instance.objectNode(), runs);
    }
}
