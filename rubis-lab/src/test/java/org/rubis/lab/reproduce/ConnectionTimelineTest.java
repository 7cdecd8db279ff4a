package org.rubis.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Concurrent connections from a server's connections.csv, counted exactly, probes left out. */
class ConnectionTimelineTest {

    @TempDir
    Path run;

    @Test
    void countsOpenConnectionsWithinAWindow() throws Exception {
        Files.createDirectories(run.resolve("server"));
        Files.writeString(run.resolve("server/connections.csv"), """
                connection_id,open_epoch_ns,close_epoch_ns,requests,closed_by,tls
                127.0.0.1:1,100,1000,5,client,
                127.0.0.1:2,200,300,1,client,
                127.0.0.1:3,250,900,2,server,
                127.0.0.1:4,260,270,0,client,
                127.0.0.1:5,2000,3000,40,client,
                """);
        ConnectionTimeline t = ConnectionTimeline.read(run);
        assertEquals(4, t.connections(), "the probe without a request is left out");
        assertEquals(3, t.maxOpen(0, 1500), "1, 2 and 3 overlap at 250");
        assertEquals(2, t.maxOpen(400, 1500), "after 2 closed");
        assertEquals(1, t.maxOpen(1500, 5000));
        assertEquals(40, t.maxRequests);
        assertEquals(1L, t.requestsPerConnection.get(5));
        assertEquals(0, t.openAt(1000), "closed at 1000");
    }
}
