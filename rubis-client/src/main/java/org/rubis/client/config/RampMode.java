package org.rubis.client.config;

import java.util.Locale;

/**
 * How closed-mode users enter the run ({@code workload_ramp_mode}, {@code --ramp-mode}).
 * The original client's way makes the measured phase drift: every user first waits one think time
 * stretched by the up-ramp slowdown (up to 140 s with a 10 s ramp), so the population is still
 * arriving during the run phase and throughput climbs through it.
 */
public enum RampMode {
    /**
     * Users start uniformly over the up ramp; each first request comes after a think time drawn
     * from the stationary (memoryless) distribution, and a think time that crosses a phase
     * boundary is stretched only for the part of it inside a ramp. The run phase starts with the
     * whole population in its steady state.
     */
    STATIONARY,
    /** The original's: every user arrives at the start after one think time times the factor of the phase it starts in. */
    ORIGINAL;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return label();
    }
}
