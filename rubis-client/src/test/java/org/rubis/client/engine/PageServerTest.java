package org.rubis.client.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The engine's tests that run a session against their own loopback {@link PageServer} (new for each test) and log into a temporary directory. */
abstract class PageServerTest {

    @TempDir
    Path tmp;

    PageServer server;

    @BeforeEach
    void startServer() throws Exception {
        server = new PageServer();
    }

    @AfterEach
    void stopServer() throws Exception {
        server.close();
    }
}
