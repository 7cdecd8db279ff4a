package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.Backends;
import org.rubis.client.backend.BlockingBackend;
import org.rubis.client.backend.EventLoopBackend;
import org.rubis.client.backend.PrepareAhead;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.config.ExecutionModel;

/**
 * The execution model is decided once, from the configuration ({@code ClientConfig.Execution.model()}); the backend
 * {@link Backends#create} makes for it speaks that model's protocol, the executor is the model's, and only dedicated
 * and netty prepare ahead.
 */
class ExecutionModelTest {

    @ParameterizedTest(name = "{0} on {1} threads: {2}")
    @CsvSource({
        "legacy, platform, PLATFORM_THREADS, false", "legacy, virtual, VIRTUAL_THREADS, false",
        "pooled, platform, PLATFORM_THREADS, false", "pooled, virtual, VIRTUAL_THREADS, false",
        "dedicated, platform, PLATFORM_THREADS, true", "dedicated, virtual, VIRTUAL_THREADS, true",
        "netty, platform, EVENT_LOOPS, true", "netty, virtual, EVENT_LOOPS, true"
    })
    void theBackendAndTheExecutorAreThoseOfTheOneModel(
            String backend, String threads, ExecutionModel model, boolean prepares) {
        ClientConfig c = ConfigLoader.load((Path) null, Map.of("client_backend", backend, "client_threads", threads));
        assertEquals(model, c.execution().model());
        try (Backend b = Backends.create(c.execution(), "http://127.0.0.1:9")) {
            assertEquals(backend, b.name());
            boolean loops = model == ExecutionModel.EVENT_LOOPS;
            assertTrue(loops ? b instanceof EventLoopBackend : b instanceof BlockingBackend, b.name());
            assertEquals(prepares, PrepareAhead.of(b).enabled(), "prepares ahead");
            SessionContext ctx =
                    new SessionContext(new RunClock(c), new StopSignal(), b, null, new ActiveSessions(), RunSeams.NONE);
            try (SessionExecutor e = SessionExecutor.of(ctx, model, (who, x) -> {})) {
                Class<?> expected = switch (model) {
                    case EVENT_LOOPS -> EventLoopSessions.class;
                    case VIRTUAL_THREADS -> VirtualThreadSessions.class;
                    case PLATFORM_THREADS -> ThreadSessions.class;
                };
                assertEquals(expected, e.getClass());
            }
        }
    }
}
