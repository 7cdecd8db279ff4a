package org.rubis.lab.reproduce;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.CategoryChart;
import org.rubis.analysis.report.Charts;
import org.rubis.client.config.BackendKind;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.process.ServerChoice;

/**
 * Nou, Guitart and Torres (FINDINGS D): a full TLS handshake costs the server far more CPU than a
 * resumed one, so whether clients resume sessions changes the server's load. The same stream of short
 * sessions (one new connection each, dedicated backend) runs over HTTPS with resumption on and off;
 * the server's stats.json counts full and resumed handshakes and its process CPU time is divided by
 * the connections it accepted.
 */
final class TlsHandshakes implements Experiment {

    @Override
    public String name() {
        return "tls";
    }

    @Override
    public String title() {
        return "TLS handshakes";
    }

    @Override
    public String source() {
        return "Nou, Guitart, Torres, SSL application servers (FINDINGS D)";
    }

    @Override
    public String published() {
        return "Server CPU for a full TLS handshake about 170 ms against about 2 ms for a resumed one.";
    }

    @Override
    public String needsOwnServer() {
        return "needs the server's handshake counts (stats.json) and its CPU time";
    }

    /** One side of the comparison. */
    private record Side(String resumption, long connections, long full, long resumed, double cpuSeconds) {
        double cpuMsPerConnection() {
            return connections == 0 ? 0 : cpuSeconds * 1000 / connections;
        }
    }

    @Override
    public Finding run(Lab lab) throws Exception {
        List<Side> sides = new ArrayList<>();
        List<Path> runs = new ArrayList<>();
        for (String resumption : List.of("on", "off")) {
            // Sessions of 2 requests with no think time: a new connection (and handshake) every few milliseconds per
            // user.
            // Two users: only their first handshakes are necessarily full (nothing to resume yet), every later one may
            // resume.
            boolean on = resumption.equals("on");
            ClientCommandLine client = ClientCommandLine.run()
                    .users(2)
                    .thinkScale(0)
                    .maxTransitions(2)
                    .backend(BackendKind.DEDICATED)
                    .tlsResumption(on)
                    .rampUp(lab.pick(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1)))
                    .duration(lab.pick(Duration.ofSeconds(3), Duration.ofSeconds(8), Duration.ofSeconds(20)))
                    .rampDown(Duration.ZERO)
                    .seed(1);
            ClientSpec spec = ClientSpec.of(client).withServer(ServerChoice.DEFAULTS.https(on));
            ClientRun r = lab.run(name(), "resumption-" + resumption, spec);
            runs.add(r.dir());
            if (!r.ok() || r.serverStats() == null) {
                return Finding.failed(
                        this, "resumption " + resumption + ": no requests or no server stats; " + r.where(), runs);
            }
            var s = r.serverStats();
            sides.add(new Side(
                    resumption,
                    s.path("connections_accepted").asLong(),
                    s.path("tls_full_handshakes").asLong(),
                    s.path("tls_resumed_handshakes").asLong(),
                    r.serverCpuSeconds()));
        }
        Side on = sides.get(0);
        Side off = sides.get(1);
        CategoryChart c = Charts.bars(
                Figure.STYLE,
                "Server CPU per connection over HTTPS",
                "session resumption",
                "server CPU per connection (ms)");
        c.addSeries(
                "server CPU per connection",
                List.of("on (resumed handshakes)", "off (full handshakes)"),
                List.of(on.cpuMsPerConnection(), off.cpuMsPerConnection()));
        Figure fig = Figure.save(
                c,
                lab.out(),
                "fig-tls",
                "Server process CPU time while the client ran, divided by the connections it accepted "
                        + "(each carried a 2-request session). The paper: about 170 ms per full handshake, 2 ms per resumed one.");
        String measured = String.format(
                Locale.ROOT,
                "resumption on: %d connections, %d full and %d resumed handshakes, %.2f ms server CPU per "
                        + "connection; off: %d connections, %d full and %d resumed, %.2f ms per connection (%.1fx)",
                on.connections(),
                on.full(),
                on.resumed(),
                on.cpuMsPerConnection(),
                off.connections(),
                off.full(),
                off.resumed(),
                off.cpuMsPerConnection(),
                on.cpuMsPerConnection() > 0 ? off.cpuMsPerConnection() / on.cpuMsPerConnection() : Double.NaN);
        boolean counts = on.resumed() > 0 && off.resumed() == 0;
        boolean cheaper = off.cpuMsPerConnection() > on.cpuMsPerConnection();
        String why = (counts
                        ? "resumed handshakes occur only with resumption on"
                        : "the handshake counts do not follow the resumption setting")
                + (cheaper
                        ? ", and the server spends more CPU per connection when every handshake is full, as Nou et al. found (the ratio is "
                                + "smaller: today's ECDHE handshakes are far cheaper than the 2000s' RSA ones, and request work is in both)"
                        : ", but the server's CPU per connection was not higher with full handshakes on this noisy machine");
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        for (Side s : sides) {
            data.putObject("resumption_" + s.resumption())
                    .put("connections", s.connections())
                    .put("full_handshakes", s.full())
                    .put("resumed_handshakes", s.resumed())
                    .put("server_cpu_s", s.cpuSeconds())
                    .put("server_cpu_ms_per_connection", s.cpuMsPerConnection());
        }
        return Finding.of(this, measured, Verdict.of(counts && cheaper), why, List.of(fig), data, runs);
    }
}
