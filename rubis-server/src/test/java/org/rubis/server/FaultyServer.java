package org.rubis.server;

import java.nio.file.Path;
import java.util.Map;
import org.rubis.format.fault.FaultSpec;
import org.rubis.format.io.Tls;
import org.rubis.server.data.DataPolicy;
import org.rubis.server.http.ServerSettings;

/**
 * A small embedded server with a fault spec, started in this JVM on a free loopback port: what a
 * test of a client against a misbehaving server needs in one call. {@code die} closes the server
 * (listener and connections) instead of ending the JVM.
 *
 * <pre>
 * try (RubisServer s = FaultyServer.start(RubisServer.Model.EVENT, "reset:0.5", dir)) {
 *     String base = "http://127.0.0.1:" + s.port();   // requests.csv in dir names each fault
 * }
 * </pre>
 */
public final class FaultyServer {

    private FaultyServer() {}

    /**
     * Starts a server of {@code model} with the faults of {@code spec} (see docs/FAULTS.md), a tiny
     * data set (scale 0.005), 5 s keep-alive, and its logs in {@code outDir} (null: counters only).
     *
     * @throws IllegalArgumentException when the spec is malformed (a one-line message)
     */
    public static RubisServer start(RubisServer.Model model, String spec, Path outDir) throws Exception {
        return start(model, spec, outDir, null);
    }

    /** As {@link #start(RubisServer.Model, String, Path)}, over TLS when {@code tls} is not null. */
    public static RubisServer start(RubisServer.Model model, String spec, Path outDir, Tls tls) throws Exception {
        ServerSettings settings = new ServerSettings("127.0.0.1", 0, 5000, 0, 8, 32, 2, 200, 128, 2, tls);
        RubisServer s = new RubisServer(
                model, settings, DataPolicy.load(null, 0.005, 1), outDir, null, Map.of(), FaultSpec.parse(spec));
        try {
            s.start();
        } catch (Exception e) {
            s.close();
            throw e;
        }
        return s;
    }
}
