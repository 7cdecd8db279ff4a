package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.input.Source;
import org.rubis.client.profile.ProfileShape;
import org.rubis.client.profile.ProfileUnit;
import org.rubis.client.profile.Profiles;
import org.rubis.client.profile.TimeSeries;
import org.rubis.format.run.Columns;
import org.rubis.server.FaultyServer;
import org.rubis.server.RubisServer;

/**
 * Load profiles on real runs, checked against the embedded server's own accounting of connections (server/connections.csv): the concurrent
 * sessions it saw in each interval of a step profile are the profile's users, and a mix switch changes the states of
 * the sessions that start after it only. Short intervals and a small think scale keep the runs to seconds. Each case
 * has its own server and mostly waits for its run: the cases run concurrently.
 */
@Tag("concurrent")
@Execution(ExecutionMode.CONCURRENT)
class ProfileRunTest {

    /** States the browsing table never reaches (docs/WORKLOAD.md, Transition tables): only bidding sessions send them. */
    private static final Set<String> BIDDING_ONLY = Set.of(
            "Register",
            "RegisterUser",
            "Sell",
            "SelectCategoryToSellItem",
            "SellItemForm",
            "RegisterItem",
            "PutBidAuth",
            "PutBid",
            "StoreBid",
            "BuyNowAuth",
            "BuyNow",
            "StoreBuyNow");

    @TempDir
    Path tmp;

    private record Run(JsonNode summary, Path dir, Path serverDir) {}

    private Run run(String name, String profile, Map<String, String> extra) throws Exception {
        Path file = tmp.resolve(name + ".profile");
        Files.writeString(file, profile);
        Path dir = tmp.resolve(name);
        Path serverDir = tmp.resolve(name + "-server");
        JsonNode summary;
        try (RubisServer server = FaultyServer.start(RubisServer.Model.EVENT, "", serverDir)) {
            Map<String, String> p = new HashMap<>(Map.of(
                    "client_target",
                    "http://127.0.0.1:" + server.port(),
                    "client_backend",
                    "dedicated",
                    "workload_profile_file",
                    file.toString(),
                    "workload_up_ramp_time_in_ms",
                    "2000",
                    "workload_down_ramp_time_in_ms",
                    "0",
                    "workload_think_scale",
                    "0.05",
                    "client_progress",
                    "no",
                    "client_jit_warmup",
                    "off",
                    "client_seed",
                    "7"));
            p.putAll(extra);
            RunEngine engine = new RunEngine(
                    ConfigLoader.load((Path) null, p), dir, new PrintStream(OutputStream.nullOutputStream()));
            summary = engine.run().json();
        }
        return new Run(summary, dir, serverDir);
    }

    /** Each connection the server accepted, from its own accounting (server/connections.csv): opened, closed. */
    private static List<long[]> connectionSpans(Path serverDir) throws Exception {
        List<String> lines = Files.readAllLines(serverDir.resolve("connections.csv"));
        List<String> header = List.of(lines.get(0).split(","));
        int open = header.indexOf("open_epoch_ns");
        int close = header.indexOf("close_epoch_ns");
        List<long[]> spans = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            spans.add(
                    new long[] {Long.parseLong(f[open]), f[close].isEmpty() ? Long.MAX_VALUE : Long.parseLong(f[close])
                    });
        }
        return spans;
    }

    /** The mean number of connections open on the server over [from, to), sampled every 10 ms. */
    private static double meanConcurrent(List<long[]> spans, long from, long to) {
        long step = 10_000_000L;
        long samples = 0;
        long sum = 0;
        for (long t = from; t < to; t += step) {
            for (long[] s : spans) {
                sum += s[0] <= t && t < s[1] ? 1 : 0;
            }
            samples++;
        }
        return sum / (double) samples;
    }

    @Test
    void aStepProfileHasItsUsersInSessionOnTheServerInEachInterval() throws Exception {
        // Dedicated connections: one per session, so the server's open connections are the sessions in progress.
        // next-think: users the profile lets go leave within one request, so the server sees the step promptly.
        Run r = run("steps", "0 20\n4s 100\n8s 40\n12s end\n", Map.of("workload_profile_leave", "next-think"));
        assertEquals("complete", r.summary().get("status").asText(), r.summary().toString());
        JsonNode intervals = r.summary().get("intervals");
        assertEquals(3, intervals.size(), intervals.toString());
        List<long[]> spans = connectionSpans(r.serverDir());
        int[] planned = {20, 100, 40};
        for (int i = 0; i < 3; i++) {
            JsonNode in = intervals.get(i);
            assertEquals(planned[i], in.get("users_planned").asDouble(), 1e-9, in.toString());
            // Skip the first 1.5 s of each interval: joining users send after a think time, leaving ones finish a
            // request.
            long from = in.get("start_epoch_ns").asLong() + 1_500_000_000L;
            long to = in.get("end_epoch_ns").asLong();
            double seen = meanConcurrent(spans, from, to);
            // Below the plan only by the users thinking between two sessions (no connection then): a session is tens of
            // requests, so a few percent of the time.
            assertTrue(
                    seen > 0.8 * planned[i] && seen < 1.05 * planned[i],
                    "interval " + i + ": the server saw " + seen + " sessions in progress, planned " + planned[i]);
            double achieved = in.get("users_achieved").asDouble();
            assertTrue(achieved >= planned[i] - 1e-9 && achieved < planned[i] * 1.2, in.toString());
        }
        assertTrue(r.summary().get("profile").get("sessions_left").asLong() > 0, "users left at their next think time");
    }

    @Test
    void aStepDownIsFollowedWithinTheGraceByDefault() throws Exception {
        // Sessions of 10 s and more (think 0.35 s, tens of requests): finished whole, 50 of 60 users would stay on for
        // seconds after the step down. The default leave is bounded: a user finishes its session within the grace
        // (2 s here), then leaves at its next think time.
        Run r = run("grace", "0 60\n4s 10\n12s end\n", Map.of("workload_profile_leave_grace_in_ms", "2000"));
        assertEquals("complete", r.summary().get("status").asText(), r.summary().toString());
        assertEquals("graceful", r.summary().get("profile").get("leave").asText());
        JsonNode down = r.summary().get("intervals").get(1);
        // The lag, stated per interval: no user stayed longer than the grace and one request and think time (TPC-W's
        // longest is ten means: 3.5 s), however long its session.
        assertTrue(down.get("lag_max_s").asDouble() <= 2 + 3.5 + 1, down.toString());
        assertTrue(down.get("users_lag_max").asLong() > 0, "users did finish sessions within the grace: " + down);
        // The server's own accounting: one dedicated connection per session. From 8 s on (the grace and a think time
        // after the step), it saw the plan's 10 sessions, not the 60 of before.
        List<long[]> spans = connectionSpans(r.serverDir());
        long from = down.get("start_epoch_ns").asLong() + 4_000_000_000L;
        double seen = meanConcurrent(spans, from, down.get("end_epoch_ns").asLong());
        assertTrue(seen <= 12, "the server saw " + seen + " sessions in progress 4 s after the step down to 10");
        assertTrue(r.summary().get("profile").get("sessions_left").asLong() > 0, "sessions were cut after the grace");
    }

    @Test
    void theThinkTimesCutByAStepDownLeaveTheIntervalBeforeItAsSteadyAsTheOneBeforeThat() throws Exception {
        // 150 users, mean think 2.1 s (7 s x 0.3), for three intervals of 8 s, then 10: 140 users leave at their next
        // think time, each in a think that crosses the step. Left out (or counted whole), those think times bias the
        // last interval's Z, and its Little's N/(X(R+Z)) read about (140/150)(2.1 s / 8 s) = 25 % above the same load's
        // in the interval before (1.15 against 1.0 on this host). The interval before is the reference: the same users
        // on the same host, so what the host's load does to both (send lateness) cancels out.
        Run r = run(
                "stepdown",
                "0 150\n8s 150\n16s 150\n24s 10\n27s end\n",
                Map.of("workload_profile_leave", "next-think", "workload_think_scale", "0.3"));
        assertEquals("complete", r.summary().get("status").asText(), r.summary().toString());
        JsonNode reference = r.summary().get("intervals").get(1).get("stationarity");
        JsonNode before = r.summary().get("intervals").get(2).get("stationarity");
        assertTrue(
                r.summary().get("profile").get("sessions_left").asLong() >= 100,
                r.summary().get("profile").toString());
        double ratio = before.get("little_ratio").asDouble();
        double ref = reference.get("little_ratio").asDouble();
        // Each ratio's own noise at about 550 requests is a few percent; the bias was 25 %.
        assertEquals(
                ref,
                ratio,
                0.1,
                "Little's ratio of the interval before the step down against the one before it, both flat at 150 users:"
                        + " " + before + " against " + reference);
    }

    @Test
    void aMixSwitchChangesTheStatesOfNewSessionsOnly() throws Exception {
        // Sessions of at most 10 requests, so that many begin after the switch.
        Run r = run(
                "mix",
                "0 30 bidding\n4s 30 browsing\n9s end\n",
                Map.of("workload_maximum_number_of_transitions", "10"));
        assertEquals("complete", r.summary().get("status").asText(), r.summary().toString());
        long switchNs =
                r.summary().get("intervals").get(1).get("start_epoch_ns").asLong();
        Map<Long, Long> sessionStart = new HashMap<>();
        List<String> sessions = Files.readAllLines(r.dir().resolve("sessions.csv"));
        List<String> sh = List.of(sessions.get(0).split(","));
        for (String line : sessions.subList(1, sessions.size())) {
            String[] f = line.split(",", -1);
            sessionStart.put(
                    Long.parseLong(f[sh.indexOf("session_id")]),
                    Long.parseLong(f[sh.indexOf("intended_start_epoch_ns")]));
        }
        List<String> requests = Files.readAllLines(r.dir().resolve("requests.csv"));
        List<String> rh = List.of(requests.get(0).split(","));
        assertEquals(Columns.REQUESTS, rh);
        long biddingAfterSwitchInOldSessions = 0;
        Set<Long> newSessions = new HashSet<>();
        long newSessionRequests = 0;
        for (String line : requests.subList(1, requests.size())) {
            String[] f = line.split(",", -1);
            long sid = Long.parseLong(f[rh.indexOf("session_id")]);
            String state = f[rh.indexOf("state")];
            long sent = Long.parseLong(f[rh.indexOf("send_epoch_ns")]);
            boolean startedAfter = sessionStart.get(sid) >= switchNs;
            if (startedAfter) {
                newSessions.add(sid);
                newSessionRequests++;
                assertTrue(
                        !BIDDING_ONLY.contains(state),
                        "session " + sid + " began after the switch to browsing, yet sent " + state);
            } else if (sent >= switchNs && BIDDING_ONLY.contains(state)) {
                biddingAfterSwitchInOldSessions++;
            }
        }
        assertTrue(newSessions.size() >= 20 && newSessionRequests >= 100, newSessions.size() + " new sessions");
        assertTrue(biddingAfterSwitchInOldSessions > 0, "sessions in progress at the switch keep the bidding mix");
        assertEquals("browsing", r.summary().get("intervals").get(1).get("mix").asText());
    }

    @Test
    void aDiurnalRateFromATimeSeriesIsAchievedInEachInterval() throws Exception {
        // A generated day of request rates (per minute, low at midnight, high at noon), rescaled to 10 s at 40
        // sessions/s.
        StringBuilder b = new StringBuilder("minute,rps\n");
        for (int m = 0; m < 1440; m++) {
            b.append(m)
                    .append(',')
                    .append(200 + 800 * (1 - Math.cos(2 * Math.PI * m / 1440)))
                    .append('\n');
        }
        Path trace = tmp.resolve("day.csv");
        Files.writeString(trace, b.toString());
        String profile = Profiles.series(
                        ProfileUnit.RATE,
                        ProfileShape.STEP,
                        TimeSeries.read(Source.file(trace)),
                        "day.csv",
                        40,
                        10_000,
                        2_000)
                .text();
        Run r = run(
                "diurnal",
                profile,
                Map.of("workload_arrivals", "hybrid", "workload_maximum_number_of_transitions", "5"));
        assertEquals("complete", r.summary().get("status").asText(), r.summary().toString());
        JsonNode intervals = r.summary().get("intervals");
        assertEquals(5, intervals.size(), intervals.toString());
        // Arrivals per interval (sessions.csv's intended start instants: the arrival process, which a loaded host does
        // not move), against the plan: Poisson arrivals, so within 4 standard deviations (and 2 sessions of slack).
        List<Long> intended = new ArrayList<>();
        List<String> sessions = Files.readAllLines(r.dir().resolve("sessions.csv"));
        int col = List.of(sessions.get(0).split(",")).indexOf("intended_start_epoch_ns");
        for (String line : sessions.subList(1, sessions.size())) {
            intended.add(Long.parseLong(line.split(",", -1)[col]));
        }
        long clientBegun = 0;
        for (JsonNode in : intervals) {
            long from = in.get("start_epoch_ns").asLong();
            long to = in.get("end_epoch_ns").asLong();
            double expected = in.get("rate_planned").asDouble() * (to - from) / 1e9;
            long arrived = intended.stream().filter(t -> t >= from && t < to).count();
            assertEquals(expected, arrived, 4 * Math.sqrt(expected) + 2, "interval " + in.get("index") + ": " + in);
            clientBegun += in.get("sessions_begun").asLong();
        }
        // The server's own accounting: one dedicated connection per session, each accepted a little after the session
        // began (a loaded host delays the accept, so a few cross an interval's end, which is why the per-interval check
        // above reads the intended instants). None is lost, and the server saw noon busier than midnight.
        List<long[]> spans = connectionSpans(r.serverDir());
        long runStart = intervals.get(0).get("start_epoch_ns").asLong();
        long lastIntervals = spans.stream()
                .filter(c -> c[0] >= intervals.get(3).get("start_epoch_ns").asLong())
                .count();
        assertTrue(clientBegun > 0);
        assertEquals(
                r.summary().get("sessions_started").asLong(),
                spans.size(),
                "every session the client began (up ramp included) is one connection the server accepted");
        long noon = spans.stream()
                .filter(c -> c[0] >= intervals.get(2).get("start_epoch_ns").asLong()
                        && c[0] < intervals.get(3).get("start_epoch_ns").asLong())
                .count();
        long midnight = spans.stream()
                .filter(c -> c[0] >= runStart
                        && c[0] < intervals.get(1).get("start_epoch_ns").asLong())
                .count();
        assertTrue(
                noon > 2 * midnight && lastIntervals > 0,
                "the server saw " + midnight + " sessions at midnight, " + noon + " at noon");
        assertTrue(
                intervals.get(2).get("rate_planned").asDouble()
                        > 3 * intervals.get(0).get("rate_planned").asDouble(),
                "noon is busier than midnight: " + intervals);
    }
}
