package org.rubis.client.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.process.EmbeddedServerProcess;
import org.rubis.format.RunFiles;

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
