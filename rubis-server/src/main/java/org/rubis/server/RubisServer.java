package org.rubis.server;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.rubis.format.fault.FaultKind;
import org.rubis.format.fault.FaultSpec;
import org.rubis.server.app.RubisApp;
import org.rubis.server.data.DataPolicy;
import org.rubis.server.data.Database;
import org.rubis.server.data.Populator;
import org.rubis.server.fault.FaultInjector;
import org.rubis.server.http.EventServer;
import org.rubis.server.http.PreforkServer;
import org.rubis.server.http.RubisHttpServer;
import org.rubis.server.http.ServerSettings;
import org.rubis.server.truth.GroundTruth;

/**
 * The embedded auction site assembled: database populated from the policy, application, ground
 * truth and one server model. {@link #close()} stops serving and then flushes the logs.
 */
public final class RubisServer implements AutoCloseable {

    /** The two server models. */
    public enum Model {
        EVENT,
        PREFORK
    }

    private final Database db;
    private final GroundTruth truth;
    private final RubisHttpServer http;
    private final int items;
    private final long populateMs;
    private final FaultInjector faults;
    private int port;
    private boolean closed;

    public RubisServer(
            Model model,
            ServerSettings settings,
            DataPolicy policy,
            Path outDir,
            String dbFile,
            Map<String, Integer> demandMicros)
            throws Exception {
        this(model, settings, policy, outDir, dbFile, demandMicros, FaultSpec.none());
    }

    /**
     * A server that injects the faults of {@code faults} (see docs/FAULTS.md). In this constructor
     * {@code die} stops the server abruptly (listener and connections closed, logs flushed) rather
     * than the JVM, so tests can run it in-process; {@link ServerMain} makes it end the process.
     */
    public RubisServer(
            Model model,
            ServerSettings settings,
            DataPolicy policy,
            Path outDir,
            String dbFile,
            Map<String, Integer> demandMicros,
            FaultSpec faults)
            throws Exception {
        this.faults = new FaultInjector(faults);
        this.faults.onDie(() -> new Thread(this::close, "rubis-server-die").start());
        long t0 = System.nanoTime();
        this.db = new Database(dbFile);
        this.items = db.isEmpty() ? new Populator(policy).populate(db.keeper(), System.currentTimeMillis()) : -1;
        this.populateMs = (System.nanoTime() - t0) / 1_000_000;
        this.truth = new GroundTruth(outDir, model.name().toLowerCase(Locale.ROOT));
        this.faults.onScheduledDie(() -> truth.fault(FaultKind.DIE.specName()));
        RubisApp app = new RubisApp(db, demandMicros);
        this.http = model == Model.EVENT
                ? new EventServer(app, truth, settings, this.faults)
                : new PreforkServer(app, truth, settings, this.faults);
    }

    public int start() throws Exception {
        port = http.start();
        return port;
    }

    public int port() {
        return port;
    }

    public int items() {
        return items;
    }

    public long populateMs() {
        return populateMs;
    }

    /** The fault injector, e.g. to make {@code die} end the process. */
    public FaultInjector faults() {
        return faults;
    }

    public GroundTruth truth() {
        return truth;
    }

    public RubisHttpServer http() {
        return http;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        http.close();
        truth.close();
        db.close();
    }
}
