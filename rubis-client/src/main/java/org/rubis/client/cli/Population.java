package org.rubis.client.cli;

import picocli.CommandLine.Option;

/**
 * {@code --users} and {@code --think-scale}, the closed population of the lab's commands, each with its own defaults.
 */
public final class Population {

    @Option(names = "--users", paramLabel = "N", description = "Emulated users.")
    int users;

    @Option(
            names = "--think-scale",
            paramLabel = "X",
            description = "Multiply every think time by X (0 = no think time, 1 = TPC-W's).")
    double thinkScale;

    /** A command's defaults, e.g. {@code new Population(200, 0.1)}. */
    public Population(int users, double thinkScale) {
        this.users = users;
        this.thinkScale = thinkScale;
    }

    public int users() {
        return users;
    }

    public double thinkScale() {
        return thinkScale;
    }
}
