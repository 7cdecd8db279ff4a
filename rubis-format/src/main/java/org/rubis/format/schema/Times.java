package org.rubis.format.schema;

import org.rubis.format.run.Phase;

/**
 * A response-time section ({@code response_time_ms} and its kin): one {@link Latency} per phase and overall.
 */
public record Times(Latency up, Latency run, Latency down, Latency overall) {

    /** The phase's figures (null when the file has none). */
    public Latency of(Phase phase) {
        return switch (phase) {
            case UP -> up;
            case RUN -> run;
            case DOWN -> down;
        };
    }
}
