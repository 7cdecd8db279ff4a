package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTPS end to end: every backend over TLS, with session resumption on or off, checked by the server. */
class TlsRunTest {

    @TempDir
    Path work;

    private JsonNode run(String backend, String resumption, String... extra) throws Exception {
        String out = backend + "-" + resumption;
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--tls",
                "--tls-resumption",
                resumption,
                "--backend",
                backend,
                "--users",
                "20",
                "--sessions-per-user",
                "2",
                "--max-transitions",
                "4",
                "--ramp-up",
                "0",
                // A cap only: the run ends when its 40 sessions have; a run cut by it logs requests that never
                // reached the server (82 of 100 at load 35 with 30 s).
                "--duration",
                "120s",
                "--ramp-down",
                "0",
                "--think-scale",
                "0.02",
                "--seed",
                "4",
                "--out",
                out,
                "--no-progress",
                "-Dserver_size=0.02"));
        args.addAll(List.of(extra));
        Cli.Result r = Cli.run(work, 240, args.toArray(String[]::new));
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("Embedded server ready at https://127.0.0.1:"), r.out());
        RunDir d = new RunDir(work.resolve(out));
        JsonNode s = d.json("server/stats.json");
        long requests = d.csv("requests.csv").size();
        assertEquals(requests, s.get("requests").asLong(), backend + ": every request served over TLS");
        assertEquals(0, d.json("summary.json").get("errors").asLong(), backend);
        assertEquals(
                s.get("connections_accepted").asLong(),
                s.get("tls_full_handshakes").asLong()
                        + s.get("tls_resumed_handshakes").asLong(),
                backend + ": one handshake per connection");
        return s;
    }

    @Test
    void resumptionOnResumesSessionsOnNewConnections() throws Exception {
        JsonNode s = run("dedicated", "on");
        assertTrue(s.get("tls_resumed_handshakes").asLong() > 0, "dedicated: " + s);
        // The JDK cache without keep-alive: a connection, and a handshake, per request; later ones resume.
        JsonNode l = run("legacy", "on", "-Dclient_http_keepalive=no");
        assertEquals(
                l.get("requests").asLong(), l.get("connections_accepted").asLong(), "legacy without keep-alive: " + l);
        assertTrue(l.get("tls_resumed_handshakes").asLong() > 0, "legacy: " + l);
    }

    @Test
    void resumptionOffMakesEveryHandshakeFull() throws Exception {
        for (String backend : new String[] {"dedicated", "netty"}) {
            JsonNode s = run(backend, "off");
            assertEquals(0, s.get("tls_resumed_handshakes").asLong(), backend + ": " + s);
            assertTrue(s.get("tls_full_handshakes").asLong() >= 40, backend + ": a connection per session: " + s);
        }
    }
}
