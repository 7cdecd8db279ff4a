package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rubis.client.report.Verdict.Evidence;
import org.rubis.format.schema.Cause;
import org.rubis.format.stats.ErrorShare;
import org.rubis.format.stats.WireAccuracy;

/** The verdict's rules: each cause is named from its own evidence, and only then. */
class VerdictTest {

    /** An idle 2-core host, a quiet client, an external server. */
    private static Evidence quiet() {
        return new Evidence(2, 0.05, 3, 0.4, 0.3, 0.02, 0.0, 1.2, Double.NaN, false);
    }

    @Test
    void aQuietRunIsOkAndSaysAccuracyWasNotMeasured() {
        Verdict v = Verdict.of(quiet(), null);
        assertEquals(List.of(), v.causes());
        assertTrue(v.text().startsWith("OK: no cause found"), v.text());
        assertTrue(v.text().contains("Accuracy not measured (no packet capture)"), v.text());
        assertTrue(v.text().contains("server load unknown"), v.text());
    }

    @Test
    void lateSendsOnABusyHostWithAnIdleClientBlameTheHostNotTheClient() {
        // The measured case from the issue: other processes load the machine, the client uses 0.05 cores.
        Evidence e = new Evidence(2, 0.05, 3, 12.0, 9.0, 1.6, 0.0, 7.5, Double.NaN, false);
        Verdict v = Verdict.of(e, null);
        assertEquals(List.of(Cause.HOST), v.causes());
        assertTrue(v.text().contains("HOST: other processes used 1.60 of 2 cores"), v.text());
        assertTrue(v.text().contains("the client itself was fine"), v.text());
    }

    @Test
    void lateSendsTheSchedulerDoesNotExplainBlameTheClient() {
        // Idle threads wake within 0.3 ms, yet sends are 200 ms late: the client held its own threads up.
        Evidence e = new Evidence(2, 0.1, 3, 200.0, 0.3, 0.05, 0.0, 1.0, Double.NaN, false);
        Verdict v = Verdict.of(e, null);
        assertEquals(List.of(Cause.CLIENT), v.causes());
        assertTrue(v.text().contains("CLIENT: p99 send lateness 200.0 ms"), v.text());
    }

    @Test
    void everyCauseNamedComesWithItsEvidenceFigure() {
        List<Evidence> cases = List.of(
                new Evidence(2, 1.9, 3, 0.4, 0.3, 0.02, 0.0, 1.2, Double.NaN, false), // client CPU
                new Evidence(2, 0.1, 80, 0.4, 0.3, 0.02, 0.0, 1.2, Double.NaN, false), // GC
                new Evidence(2, 0.1, 3, 200.0, 0.3, 0.05, 0.0, 1.0, Double.NaN, false), // lateness of its own
                new Evidence(2, 0.05, 3, 12.0, 9.0, 1.6, 0.0, 7.5, Double.NaN, false), // host
                new Evidence(2, 0.05, 3, 0.4, 0.3, 0.02, 0.0, 1.2, 1.5, true)); // server
        for (Evidence e : cases) {
            Verdict v = Verdict.of(e, null);
            assertEquals(v.causes().size(), v.findings().size(), v.text());
            for (int i = 0; i < v.causes().size(); i++) {
                String f = v.findings().get(i);
                assertTrue(f.startsWith(v.causes().get(i).name() + ": ") && f.matches(".*[0-9].*"), f);
                assertTrue(v.text().contains(f), "the same words as the run's paragraph: " + v.text());
            }
        }
    }

    @Test
    void bothAreNamedWhenTheHostIsBusyAndTheClientLaterStill() {
        Evidence e = new Evidence(2, 0.1, 3, 200.0, 8.0, 1.5, 0.0, 6.0, Double.NaN, false);
        assertEquals(List.of(Cause.CLIENT, Cause.HOST), Verdict.of(e, null).causes());
    }

    @Test
    void clientCpuAndGcPausesAreTheClients() {
        assertEquals(
                List.of(Cause.CLIENT),
                Verdict.of(new Evidence(2, 1.8, 3, 0.4, 0.3, 0.0, 0.0, 2.0, Double.NaN, false), null)
                        .causes());
        Verdict gc = Verdict.of(new Evidence(2, 0.1, 120, 0.4, 0.3, 0.0, 0.0, 1.0, Double.NaN, false), null);
        assertEquals(List.of(Cause.CLIENT), gc.causes());
        assertTrue(gc.text().contains("GC pauses up to 120 ms"), gc.text());
    }

    @Test
    void stealAndTheRunQueueAreTheHosts() {
        assertEquals(
                List.of(Cause.HOST),
                Verdict.of(new Evidence(2, 0.1, 3, 0.4, 0.3, 0.0, 0.3, 1.0, Double.NaN, false), null)
                        .causes());
        assertEquals(
                List.of(Cause.HOST),
                Verdict.of(new Evidence(2, 0.1, 3, 0.4, 0.3, 0.1, 0.0, 5.0, Double.NaN, false), null)
                        .causes());
    }

    @Test
    void aBusyEmbeddedServerIsTheServers() {
        Verdict v = Verdict.of(new Evidence(2, 0.1, 3, 0.4, 0.3, 0.0, 0.0, 1.5, 1.4, true), null);
        assertEquals(List.of(Cause.SERVER), v.causes());
        assertTrue(v.text().contains("SERVER: the embedded server used 1.40 of 2 cores"), v.text());
        Verdict idle = Verdict.of(new Evidence(2, 0.1, 3, 0.4, 0.3, 0.0, 0.0, 1.5, 0.2, true), null);
        assertFalse(idle.suspect());
        assertTrue(idle.text().contains("embedded server 0.20 cores"), idle.text());
    }

    @Test
    void withACaptureTheAccuracyIsTheMeasuredClientMinusWire() {
        // wire median 1.5 ms: limit max(50, 150) = 150 us
        Verdict ok = Verdict.of(quiet(), wire(120, 110, 300, 1500, 1500, 40, 70));
        assertTrue(
                ok.text()
                        .contains("Accuracy measured on the wire: OK: client minus wire 120.0 us mean, 300.0 us p99"
                                + " on 1500 requests"),
                ok.text());
        assertTrue(
                ok.text()
                        .contains(
                                "(within the limit 150 us (the larger of 50 us and 10 % of the wire's median 1500.0 us))"),
                ok.text());
        assertEquals(List.of(), ok.causes());
        Verdict stale = Verdict.of(quiet(), wire(1100, 1000, 1900, 1500, 1500, 1050, 50));
        assertTrue(stale.text().contains("(OUTSIDE the limit 150 us"), stale.text());
        assertTrue(
                stale.text().contains("send side p50 1050.0 us, receive side p50 50.0 us"),
                "the verdict says where the time goes: " + stale.text());
        assertEquals(
                List.of(Cause.CLIENT),
                stale.causes(),
                "an inaccurate client (e.g. HttpClient's stale check) is the client's");
        // a fast page: the absolute 50 us holds
        assertEquals(
                List.of(Cause.CLIENT),
                Verdict.of(quiet(), wire(60, 60, 80, 100, 200, 30, 30)).causes());
    }

    @Test
    void anErrorTheReferenceProbeSharesIsTheHostsFloorNotTheClients() {
        // The measured idle-host netty run (2026-11-24): 485.6 us mean over all requests, limit 66 us; the probe
        // 321.6 us on its one connection, the client's reused connections 245.3 us; 748 of 1518 requests opened a
        // connection.
        WireAccuracy floor = wire(485.6, 314.5, 3768.6, 1518, 656.7, 145.5, 54.3, 245.3, 748, 730.0, 321.6);
        Verdict v = Verdict.of(quiet(), floor);
        assertEquals(List.of(Cause.HOST), v.causes(), v.text());
        assertTrue(
                v.text().contains("HOST: its floor: the run's times are INACCURATE, 485.6 us (mean) above the wire"),
                v.text());
        assertTrue(
                v.text()
                        .contains(
                                "the reference probe (a minimal client on one connection) was 321.6 us (mean) above the wire"),
                v.text());
        assertTrue(v.text().contains("748 of 1518 requests opened their connection"), v.text());
        // One verdict: the probe names the cause but never calls the times fine; the paragraph's accuracy statement is
        // the summary's accuracy line in a few words (INACCURATE, cause HOST), and the client is not called "fine".
        assertFalse(v.text().contains("the client itself was fine"), v.text());
        assertTrue(v.text().contains("the client's own load was fine"), v.text());
        assertTrue(
                v.text().contains("Accuracy measured on the wire: INACCURATE, cause HOST: client minus wire 485.6 us"),
                v.text());
        assertTrue(v.text().contains("OUTSIDE the limit 66 us"), v.text());
        assertEquals("HOST", floor.cause());
        assertTrue(floor.causeText().startsWith("cause HOST: this host's floor, not the client"), floor.causeText());

        // The same run with the client 100 us further from the wire than the probe on reused connections: the client's.
        WireAccuracy own = wire(585.6, 414.5, 3868.6, 1518, 656.7, 245.5, 54.3, 421.6, 748, 730.0, 321.6);
        Verdict c = Verdict.of(quiet(), own);
        assertEquals(List.of(Cause.CLIENT), c.causes(), c.text());
        assertTrue(c.text().contains("the client on reused connections 421.6 us (+100.0 us against it)"), c.text());
        assertTrue(c.text().contains("Accuracy measured on the wire: INACCURATE, cause CLIENT"), c.text());
        assertEquals("CLIENT", own.cause());

        // Without a probe nothing separates the two: the client's, with the way to find out.
        Verdict unknown = Verdict.of(
                quiet(), wire(485.6, 314.5, 3768.6, 1518, 656.7, 145.5, 54.3, 245.3, 748, 730.0, Double.NaN));
        assertEquals(List.of(Cause.CLIENT), unknown.causes());
        assertTrue(unknown.text().contains("run with --probe"), unknown.text());
        // Within the rule, the floor changes nothing.
        assertEquals(
                List.of(),
                Verdict.of(quiet(), wire(40, 35, 200, 1518, 656.7, 20, 20, 30, 748, 60, 321.6))
                        .causes());
    }

    /** More than 1 % of the run phase's requests in error names the ERRORS; 1 % itself, or none judged, does not. */
    @Test
    void theErrorsAreNamedAboveOnePercentOfTheRunPhase() {
        Verdict high = Verdict.of(quiet(), null, new ErrorShare(132, 131, Map.of("http-503", 131L), 0), false);
        assertEquals(List.of(Cause.ERRORS), high.causes());
        assertTrue(
                high.text()
                        .startsWith(
                                "SUSPECT: ERRORS: 131 of 132 run-phase requests were errors (99.2 %, over the 1 % limit; "
                                        + "http-503 131)"),
                high.text());
        assertTrue(high.text().contains("the client itself was fine"), high.text());
        assertEquals(
                List.of(),
                Verdict.of(quiet(), null, new ErrorShare(100, 1, Map.of("reset", 1L), 0), false)
                        .causes());
        assertEquals(
                List.of(Cause.ERRORS),
                Verdict.of(quiet(), null, new ErrorShare(100, 2, Map.of("reset", 2L), 0), false)
                        .causes());
        assertEquals(
                List.of(), Verdict.of(quiet(), null, ErrorShare.NONE, false).causes());
    }

    /**
     * Pages that report what a persistent database kept from earlier runs (a nickname taken) blame no one: left out of
     * the share judged, named apart; the other errors of the same run are still judged.
     */
    @Test
    void targetStatePagesAreNamedApartAndNeverBlamed() {
        Verdict remembered =
                Verdict.of(quiet(), null, new ErrorShare(1000, 43, Map.of("target-state", 43L), 43), false);
        assertEquals(List.of(), remembered.causes());
        assertTrue(remembered.text().startsWith("OK: "), remembered.text());
        assertTrue(
                remembered.text().contains("Target state: 43 run-phase pages reported the target's stored state"),
                remembered.text());
        Verdict both = Verdict.of(
                quiet(), null, new ErrorShare(1000, 63, Map.of("target-state", 43L, "http-503", 20L), 43), false);
        assertEquals(List.of(Cause.ERRORS), both.causes());
        assertTrue(both.text().contains("20 of 1000 run-phase requests were errors (2.0 %"), both.text());
        assertTrue(!both.text().contains("target-state 43)"), both.text());
        assertEquals(
                List.of(Cause.ERRORS),
                Verdict.of(quiet(), null, new ErrorShare(1000, 43, Map.of("error-page", 43L), 0), false)
                        .causes());
    }

    @Test
    void aCaptureThatLostPacketsIsNotCalledAbsentNorVouchedFor() {
        String none = Verdict.of(quiet(), null, ErrorShare.NONE, false).text();
        String cut = Verdict.of(quiet(), null, ErrorShare.NONE, true).text();
        assertTrue(none.contains("Accuracy not measured (no packet capture)"), none);
        assertTrue(cut.contains("Accuracy not vouched for: the packet capture is INCOMPLETE"), cut);
        assertFalse(cut.contains("no packet capture"), cut);
    }
    /** A wire check's accuracy with the fields the verdict reads; the rest not measured (NaN). */
    private static WireAccuracy wire(double... f) {
        double[] a = java.util.Arrays.copyOf(f, 13);
        if (f.length <= 7) {
            java.util.Arrays.fill(a, 7, 13, Double.NaN);
            a[8] = 0;
        } else {
            java.util.Arrays.fill(a, f.length, 13, Double.NaN);
        }
        return new WireAccuracy(
                a[0], a[1], a[2], (long) a[3], a[4], a[5], a[6], a[7], (long) a[8], a[9], a[10], a[11], a[12]);
    }
}
