package org.rubis.lab.capacity;

import java.util.Locale;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.ThreadModel;
import org.rubis.client.process.ClientCommandLine;

/** How a capacity step's users execute: the backend and threads that select it. */
public enum Execution {
    /** A platform thread per user (dedicated connections). */
    PLATFORM,
    /** A virtual thread per request, think times on a timer (dedicated connections). */
    VIRTUAL,
    /** netty's event loops. */
    NETTY;

    /** {@code line} with this execution's backend and threads. */
    ClientCommandLine applyTo(ClientCommandLine line) {
        return switch (this) {
            case PLATFORM -> line.backend(BackendKind.DEDICATED).threads(ThreadModel.PLATFORM);
            case VIRTUAL -> line.backend(BackendKind.DEDICATED).threads(ThreadModel.VIRTUAL);
            case NETTY -> line.backend(BackendKind.NETTY);
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
