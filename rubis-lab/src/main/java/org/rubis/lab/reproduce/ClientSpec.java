package org.rubis.lab.reproduce;

import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.process.ServerChoice;

/**
 * One client run of an experiment: the client's {@code run} options, the JVM profile of the client, the server
 * started for it (ignored with {@code --target URL}). Immutable; the {@code with...} methods return a changed copy.
 *
 * @param client  the client's command line without target, progress and run directory (the lab adds them)
 * @param profile JVM profile of the client JVM ({@code default}: the JVM's own ergonomics)
 * @param server  the embedded server as the experiment chooses it
 */
public record ClientSpec(ClientCommandLine client, String profile, ServerChoice server) {

    /** A run of {@code client}, the default JVM profile, the default event server. */
    public static ClientSpec of(ClientCommandLine client) {
        return new ClientSpec(client, "default", ServerChoice.DEFAULTS);
    }

    public ClientSpec withProfile(String name) {
        return new ClientSpec(client, name, server);
    }

    public ClientSpec withServer(ServerChoice choice) {
        return new ClientSpec(client, profile, choice);
    }
}
