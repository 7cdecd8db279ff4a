package org.rubis.server.http;

import org.rubis.format.fault.FaultKind;
import org.rubis.format.fault.FaultRule;
import org.rubis.server.app.Response;
import org.rubis.server.app.RubisApp;
import org.rubis.server.fault.FaultInjector;
import org.rubis.server.fault.FaultReplies;
import org.rubis.server.truth.GroundTruth;

/**
 * A server model: how connections are accepted and served (event loops or a worker pool). Both models serve the
 * same application, account every request and connection in the same ground truth, and misbehave by the same
 * fault injector, so that a run's figures differ between them only by the model.
 */
public abstract sealed class RubisHttpServer implements AutoCloseable, FaultInjector.Listener
        permits EventServer, PreforkServer {

    final RubisApp app;
    final GroundTruth truth;
    final ServerSettings settings;
    final FaultInjector faults;

    RubisHttpServer(RubisApp app, GroundTruth truth, ServerSettings settings, FaultInjector faults) {
        this.app = app;
        this.truth = truth;
        this.settings = settings;
        this.faults = faults;
    }

    /** Binds and starts serving; returns the bound port. */
    public abstract int start() throws Exception;

    /**
     * The stop-accepting fault: new connections wait in the listener's backlog until resumed. Counted once the hold is
     * in place, so a connection opened after stats.json shows the fault is one the server holds.
     */
    @Override
    public final void stopAccepting() {
        holdNewConnections();
        truth.fault(FaultKind.STOP_ACCEPTING.specName());
    }

    /** Takes no new connection from the listener until {@link #resumeAccepting()}. */
    abstract void holdNewConnections();

    /** The reply a status or large fault sends instead of the application's; null for any other fault or none. */
    static Response faultReply(FaultRule fault) {
        FaultKind kind = fault == null ? null : fault.kind();
        if (kind == FaultKind.STATUS) {
            int status = (int) fault.param();
            return new Response(status, "text/html", FaultReplies.statusBody(status), FaultReplies.INTERACTION);
        }
        if (kind == FaultKind.LARGE) {
            return new Response(200, "text/html", FaultReplies.large(fault.param()), FaultReplies.INTERACTION);
        }
        return null;
    }

    /** Stops accepting, closes open connections and waits for the workers. */
    @Override
    public abstract void close();
}
