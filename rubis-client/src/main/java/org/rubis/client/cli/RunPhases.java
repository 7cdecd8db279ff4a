package org.rubis.client.cli;

import java.time.Duration;
import org.rubis.client.config.Durations;
import picocli.CommandLine.Option;

/**
 * {@code --ramp-up} and {@code --duration}, as every command that runs the client takes them: the text the user typed
 * ({@code 90}, {@code 90s}, {@code 2m}, {@code 500ms}), read by the one duration parser ({@link Durations}).
 */
public final class RunPhases {

    @Option(
            names = "--duration",
            paramLabel = "TIME",
            description = "Length of the run (measured) phase, e.g. 60s, 2m, 500ms (a bare number is seconds).")
    String duration;

    @Option(names = "--ramp-up", paramLabel = "TIME", description = "Up-ramp length (a bare number is seconds).")
    String rampUp;

    /** Neither given: the properties decide ({@code run}). */
    public RunPhases() {}

    /** A command's own defaults, e.g. {@code new RunPhases("10s", "30s")}. */
    public RunPhases(String rampUp, String duration) {
        this.rampUp = rampUp;
        this.duration = duration;
    }

    /** The up ramp; a mistyped one is a one-line error naming the option. */
    public Duration rampUp() {
        return Duration.ofMillis(Durations.millis("--ramp-up", rampUp));
    }

    /** The run phase; a mistyped one is a one-line error naming the option. */
    public Duration duration() {
        return Duration.ofMillis(Durations.millis("--duration", duration));
    }

    /** The up ramp as typed (for messages), or null (not given). */
    public String rampUpText() {
        return rampUp;
    }

    /** The run phase as typed (for messages), or null (not given). */
    public String durationText() {
        return duration;
    }
}
