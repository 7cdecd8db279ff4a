package org.rubis.client.process;

import java.util.ArrayList;
import java.util.List;
import org.rubis.client.config.ServerModel;

/**
 * The embedded server as an experiment chooses it (a server of known, low capacity; the prefork model; HTTPS with or
 * without session resumption); what is not chosen is the server's default. Typed, so that {@link EmbeddedServerProcess}
 * alone writes the server's options.
 *
 * @param model         the server model, or null for the server's default (event)
 * @param eventThreads  the event model's loop threads, or 0 for the server's default
 * @param demandMicros  CPU the server burns per request, in microseconds (0: none)
 * @param tls           HTTPS with the packaged loopback key
 * @param tlsResumption with HTTPS: sessions may be resumed (else every handshake is full)
 */
public record ServerChoice(ServerModel model, int eventThreads, int demandMicros, boolean tls, boolean tlsResumption) {

    /** The server's defaults. */
    public static final ServerChoice DEFAULTS = new ServerChoice(null, 0, 0, false, true);

    public ServerChoice {
        if (eventThreads < 0 || demandMicros < 0) {
            throw new IllegalArgumentException(
                    "negative server setting: " + eventThreads + " threads, " + demandMicros + " us");
        }
    }

    public ServerChoice model(ServerModel m) {
        return new ServerChoice(m, eventThreads, demandMicros, tls, tlsResumption);
    }

    public ServerChoice eventThreads(int n) {
        return new ServerChoice(model, n, demandMicros, tls, tlsResumption);
    }

    public ServerChoice demandMicros(int us) {
        return new ServerChoice(model, eventThreads, us, tls, tlsResumption);
    }

    /** HTTPS, resuming sessions or not. */
    public ServerChoice https(boolean resumption) {
        return new ServerChoice(model, eventThreads, demandMicros, true, resumption);
    }

    /** The server's options for this choice. */
    List<String> arguments() {
        List<String> args = new ArrayList<>();
        if (model != null) {
            args.addAll(List.of("--model", model.label()));
        }
        if (eventThreads > 0) {
            args.addAll(List.of("--event-threads", String.valueOf(eventThreads)));
        }
        if (demandMicros > 0) {
            args.addAll(List.of("--demand-us", String.valueOf(demandMicros)));
        }
        if (tls) {
            args.addAll(List.of("--tls", "--tls-resumption", tlsResumption ? "on" : "off"));
        }
        return args;
    }
}
