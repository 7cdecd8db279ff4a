package org.rubis.client.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import org.rubis.client.backend.SourceAddresses;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.process.EmbeddedServerProcess;
import org.rubis.client.process.ResourcePlan;
import org.rubis.format.run.RunFiles;

/** The server a run measures: the embedded server started in its own JVM, or a given URL. */
final class Target implements AutoCloseable {

    private final String base;
    private final EmbeddedServerProcess server;
    private final PrintStream out;

    private Target(String base, EmbeddedServerProcess server, PrintStream out) {
        this.base = base;
        this.server = server;
        this.out = out;
    }

    static Target start(ClientConfig config, Path dir, PrintStream out) throws IOException {
        if (!config.embedded()) {
            return new Target(config.target(), null, out);
        }
        out.println("Starting the embedded RUBiS server (" + config.server().model() + " model) in its own JVM...");
        EmbeddedServerProcess server = EmbeddedServerProcess.start(
                config, config.regionsFile(), config.categoriesFile(), RunFiles.serverDir(dir));
        out.println("Embedded server ready at " + server.baseUrl() + "/PHP/ (pid " + server.pid() + ")");
        return new Target(server.baseUrl(), server, out);
    }

    /**
     * Checks the host can run the configuration (its ports, files, source addresses); returns it with the source
     * addresses the run needs when it asked for fewer.
     */
    static ClientConfig checkHost(ClientConfig config, PrintStream out) {
        ResourcePlan plan = ResourcePlan.of(config);
        int sources = plan.check(
                config.embedded(),
                config.execution().sourceAddresses(),
                loopback(config),
                config.execution().backend());
        if (sources == config.execution().sourceAddresses()) {
            return config;
        }
        out.println("Source addresses: 127.0.0.1.." + SourceAddresses.last(sources) + " (" + sources + "): "
                + plan.portRule());
        return config.withSourceAddresses(sources);
    }

    /** Whether the run's target is on this host's loopback (the embedded server always is). */
    private static boolean loopback(ClientConfig config) {
        if (config.embedded()) {
            return true;
        }
        try {
            return InetAddress.getByName(URI.create(config.target()).getHost()).isLoopbackAddress();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The embedded server's process id, or -1 for an external target. */
    long serverPid() {
        return server == null ? -1 : server.pid();
    }

    /** Base URL such as {@code http://127.0.0.1:8080}. */
    String base() {
        return base;
    }

    @Override
    public void close() {
        if (server != null) {
            out.println("Stopping the embedded server...");
            server.close();
        }
    }
}
