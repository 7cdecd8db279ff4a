package org.rubis.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.rubis.client.config.MetricsEndpoint;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.input.ConfigException;

/** The live view's start: a port in use is one line before the run, naming how it was given; the run's id. */
class LiveViewTest {

    private final PrintStream out = new PrintStream(new ByteArrayOutputStream());

    @Test
    void aPortInUseIsOneLineBeforeTheRun() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            ConfigException e = assertThrows(
                    ConfigException.class,
                    () -> LiveView.start(new MetricsEndpoint(port, "127.0.0.1", 0), "--metrics-port " + port, out));
            assertTrue(
                    e.getMessage().startsWith("--metrics-port " + port + ": cannot listen on 127.0.0.1 port " + port),
                    e.getMessage());
            assertTrue(e.getMessage().contains("another process listens there"), e.getMessage());
            assertEquals(-1, e.getMessage().indexOf('\n'));
        }
    }

    @Test
    void aShardsPortInUseIsRefusedBeforeAnyShardStarts() throws Exception {
        try (ServerSocket taken = takenAfterTwoFree()) {
            int base = taken.getLocalPort() - 2; // the second shard's port is taken, the two before it free
            ConfigException e = assertThrows(
                    ConfigException.class,
                    () -> LiveView.startShards(
                            new MetricsEndpoint(base, "127.0.0.1", 0), "--metrics-port " + base, 3, out));
            assertTrue(e.getMessage().contains("(shard 1 on port " + taken.getLocalPort() + ")"), e.getMessage());
            LiveView.bind(new MetricsEndpoint(base, "127.0.0.1", 0), "x").close(); // the coordinator's port was let go
        }
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> LiveView.startShards(new MetricsEndpoint(65534, "127.0.0.1", 0), "--metrics-port 65534", 2, out));
        assertTrue(e.getMessage().contains("need ports up to 65536"), e.getMessage());
    }

    /** A loopback port held open whose two predecessors are free (other processes on this host take ports too). */
    private static ServerSocket takenAfterTwoFree() throws Exception {
        for (int attempt = 0; attempt < 100; attempt++) {
            ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            int p = s.getLocalPort();
            if (p > 2 && free(p - 2) && free(p - 1)) {
                return s;
            }
            s.close();
        }
        throw new AssertionError("no loopback port with two free ports before it");
    }

    @SuppressWarnings("try") // the socket only proves the port can be bound; it is closed at once
    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void theRunsIdIsItsDirectorysNameAShardsItsRunsName() {
        assertEquals("bench-1", LiveView.runId(Path.of("/tmp/bench-1"), ShardPlan.SINGLE));
        ShardPlan shard = new ShardPlan(2, 3, Instant.now(), null, true);
        assertEquals("rubis-client-x7", LiveView.runId(Path.of("/results/rubis-client-x7/shard-2"), shard));
        assertEquals("elsewhere", LiveView.runId(Path.of("/results/elsewhere"), shard));
    }
}
