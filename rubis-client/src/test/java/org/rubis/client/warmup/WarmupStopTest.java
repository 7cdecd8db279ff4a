package org.rubis.client.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.config.JitWarmupPolicy;

/** A warm-up cut by a stop of the run says so: it once said {@code cap reached}, as if it had run to its cap. */
class WarmupStopTest {

    @Test
    void aWarmUpTheRunsStopCutSaysItWasStopped() {
        ClientConfig config = ConfigLoader.load((Path) null, Map.of("client_backend", "netty"));
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        WarmupReport report = new JitWarmup(
                        config.execution(), config.workload(), JitWarmupPolicy.AUTO, new PrintStream(text, true))
                .cancelledBy(() -> true)
                .run(List.of(), Long.MAX_VALUE);
        assertEquals(WarmupReport.Outcome.STOPPED, report.outcome(), text.toString());
        assertTrue(report.line().endsWith(", stopped with the run"), report.line());
    }
}
