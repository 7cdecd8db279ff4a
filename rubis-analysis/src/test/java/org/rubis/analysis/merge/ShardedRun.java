package org.rubis.analysis.merge;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.rubis.format.run.Columns;

/**
 * Writes the shard directories of one closed-mode run, in the format docs/RUN-DIRECTORY.md and
 * docs/SHARDING.md define: user u on shard u mod N, session ids user x 1,000,000 + k, logs in
 * completion order, each shard's summary counting its own rows. Response times differ by shard
 * (shard i is about i + 1 times slower), so averaging shard percentiles gives the wrong answer.
 */
final class ShardedRun {

    static final long START_AT = 1_800_000_000_000_000_000L; // 2027-01-15T08:00:00Z
    static final long UP_NS = 2_000_000_000L;
    static final long RUN_NS = 6_000_000_000L;
    static final long DOWN_NS = 2_000_000_000L;
    static final String[] STATES = {"Home", "Browse", "ViewItem", "SearchItemsInCategory", "PutBid"};

    /** One logged request. */
    record Req(
            int shard,
            long session,
            int user,
            int index,
            String state,
            String phase,
            long intended,
            long send,
            long response,
            String error,
            String connection,
            boolean newConnection) {
        long done() {
            return send + response;
        }
    }

    /** One logged session. */
    record Ses(int shard, long session, int user, long start, long end, int requests, int errors, String reason) {}

    final int shards;
    final int users;
    final long seed;
    final long[] startOffsetNs;
    String configSha = "3f1c0a9e6b2d4c8f1a7e5d3b9c0f2e4a6b8d0c2e4f6a8b0d2c4e6f8a0b2d4c6e";
    /** Whether the run phase ran a load profile of two steps ({@link #PROFILE_STEP_NS} each): see {@link #interval}. */
    boolean profile;

    static final long PROFILE_STEP_NS = RUN_NS / 2;
    final List<Req> requests = new ArrayList<>();
    final List<Ses> sessions = new ArrayList<>();

    ShardedRun(int shards, int users, long seed, long... startOffsetNs) {
        this.shards = shards;
        this.users = users;
        this.seed = seed;
        this.startOffsetNs = startOffsetNs.length == shards ? startOffsetNs : new long[shards];
        generate();
    }

    private void generate() {
        long end = START_AT + UP_NS + RUN_NS + DOWN_NS;
        for (int u = 0; u < users; u++) {
            int shard = u % shards;
            SplittableRandom r = new SplittableRandom(seed * 31 + u);
            long t = START_AT + startOffsetNs[shard] + r.nextLong(200_000_000L);
            int k = 0;
            while (t < end) {
                long sid = u * 1_000_000L + k;
                int n = 3 + r.nextInt(6);
                long start = t;
                int errors = 0;
                String conn = "10.0." + shard + ".7:" + (20000 + u * 50 + k);
                int done = 0;
                for (int i = 0; i < n && t < end; i++) {
                    long intended = t;
                    long send = intended + r.nextLong(300_000); // send lateness below 0.3 ms
                    long resp = 200_000 + (long) (-Math.log(1 - r.nextDouble()) * 2_000_000 * (shard + 1));
                    String error = r.nextInt(50) == 0 ? "http-500" : "";
                    errors += error.isEmpty() ? 0 : 1;
                    long rel = send - START_AT;
                    String phase = rel < UP_NS ? "up" : rel < UP_NS + RUN_NS ? "run" : "down";
                    requests.add(new Req(
                            shard,
                            sid,
                            u,
                            i,
                            STATES[r.nextInt(STATES.length)],
                            phase,
                            intended,
                            send,
                            resp,
                            error,
                            conn,
                            i == 0));
                    t = send + resp + 50_000_000L + r.nextLong(100_000_000L);
                    done++;
                }
                boolean cut = t >= end && done < n;
                sessions.add(new Ses(shard, sid, u, start, t, done, errors, cut ? "run_ended" : "end_of_session"));
                k++;
            }
        }
    }

    /** The profile's interval a request was sent in (requests.csv's {@code interval}): -1 in the ramps. */
    static int interval(Req r) {
        long rel = r.send() - START_AT - UP_NS;
        return rel < 0 || rel >= RUN_NS ? -1 : (int) (rel / PROFILE_STEP_NS);
    }

    List<Req> requestsOf(int shard) {
        return requests.stream()
                .filter(x -> x.shard == shard)
                .sorted(Comparator.comparingLong(Req::done))
                .toList();
    }

    List<Ses> sessionsOf(int shard) {
        return sessions.stream()
                .filter(x -> x.shard == shard)
                .sorted(Comparator.comparingLong(Ses::end))
                .toList();
    }

    /** Writes shard-0 .. shard-(N-1) under {@code root}; returns their paths in index order. */
    List<Path> write(Path root) throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            dirs.add(writeShard(root.resolve("shard-" + s), s));
        }
        return dirs;
    }

    Path writeShard(Path dir, int s) throws IOException {
        Files.createDirectories(dir);
        StringBuilder rq = new StringBuilder(Columns.header(Columns.REQUESTS) + "\n");
        List<Req> reqs = requestsOf(s);
        long errors = 0;
        long newConns = 0;
        for (Req x : reqs) {
            rq.append(x.session)
                    .append(",user")
                    .append(x.user + 1)
                    .append(',')
                    .append(x.index)
                    .append(',')
                    .append(x.state)
                    .append(",/PHP/")
                    .append(x.state)
                    .append(".php?id=")
                    .append(x.user)
                    .append(',')
                    .append(x.phase)
                    .append(',')
                    .append(x.intended)
                    .append(',')
                    .append(x.send)
                    .append(',')
                    .append(x.response / 2)
                    .append(',')
                    .append(x.response)
                    .append(",1234,")
                    .append(x.error.isEmpty() ? 200 : 500)
                    .append(',')
                    .append(x.error)
                    .append(',')
                    .append(x.connection)
                    .append(',')
                    .append(x.newConnection)
                    .append(",netty,0,0,0,")
                    .append(profile && interval(x) >= 0 ? String.valueOf(interval(x)) : "")
                    .append(',')
                    .append(x.connection)
                    .append('\n');
            errors += x.error.isEmpty() ? 0 : 1;
            newConns += x.newConnection ? 1 : 0;
        }
        Files.writeString(dir.resolve("requests.csv"), rq);
        StringBuilder ss = new StringBuilder(
                "session_id,emulated_user,user,intended_start_epoch_ns,start_epoch_ns,end_epoch_ns,requests,errors,end_reason\n");
        List<Ses> ses = sessionsOf(s);
        for (Ses x : ses) {
            ss.append(x.session)
                    .append(',')
                    .append(x.user)
                    .append(",user")
                    .append(x.user + 1)
                    .append(',')
                    .append(x.start)
                    .append(',')
                    .append(x.start)
                    .append(',')
                    .append(x.end)
                    .append(',')
                    .append(x.requests)
                    .append(',')
                    .append(x.errors)
                    .append(',')
                    .append(x.reason)
                    .append('\n');
        }
        Files.writeString(dir.resolve("sessions.csv"), ss);
        StringBuilder health = new StringBuilder(
                "epoch_ms,cpu_cores,heap_used_bytes,heap_max_bytes,threads,active_sessions,requests\n");
        for (long sec = 0; sec < 10; sec++) {
            health.append(START_AT / 1_000_000 + sec * 1000 + s)
                    .append(",0.")
                    .append(s + 1)
                    .append(",1000000,2000000,20,5,")
                    .append(sec * 10)
                    .append('\n');
        }
        Files.writeString(dir.resolve("client-health.csv"), health);
        Files.writeString(
                dir.resolve("client-gc.csv"),
                "end_epoch_ms,duration_ms,gc,action,cause\n" + (START_AT / 1_000_000 + 3000 + s) + "," + (s + 2)
                        + ",G1 Young Generation,end of minor GC,G1 Evacuation Pause\n");

        ObjectMapper json = new ObjectMapper();
        ObjectNode m = json.createObjectNode();
        m.put("status", "complete");
        m.put("partial", false);
        m.put("stop_reason", "complete");
        long runStart = START_AT + startOffsetNs[s];
        m.put("started_at", Instant.ofEpochSecond(0, runStart).toString());
        m.put("target", "http://rubis.example:80");
        m.put("seed", seed);
        m.put("config_sha256", configSha);
        m.put("backend", "netty");
        m.put("threads", "platform");
        m.put("arrivals", "closed");
        m.put("arrival_process", "closed, " + users + " users");
        m.put("users", users);
        m.put("users_started", (users - s + shards - 1) / shards);
        m.putObject("phases_ms")
                .put("up", UP_NS / 1_000_000)
                .put("run", RUN_NS / 1_000_000)
                .put("down", DOWN_NS / 1_000_000);
        m.put("requests", reqs.size());
        m.put("errors", errors);
        m.put("sessions_started", ses.size());
        m.put(
                "sessions_completed",
                ses.stream().filter(x -> x.reason.equals("end_of_session")).count());
        m.put(
                "sessions_aborted_at_end",
                ses.stream().filter(x -> x.reason.equals("run_ended")).count());
        m.put("sessions_delayed_by_cap", 0);
        m.put("sessions_dropped_by_cap", 0);
        m.put("connections_opened", newConns);
        m.put(
                "distinct_connections",
                reqs.stream().map(Req::connection).distinct().count());
        ObjectNode h = m.putObject("client_health");
        h.put("cpu_mean_cores", 0.1 * (s + 1))
                .put("cpu_peak_cores", 0.2 * (s + 1))
                .put("cpu_seconds", 1.0 * (s + 1))
                .put("cores", 4)
                .put("run_cpu_seconds", 0.6 * (s + 1))
                .put("gc_count", 1)
                .put("gc_pauses", 1)
                .put("gc_pause_total_ms", s + 2)
                .put("gc_max_pause_ms", s + 2)
                .put("peak_threads", 20 + s)
                .put("peak_heap_bytes", 1_000_000L * (s + 1))
                .put("saturated", false)
                .put("verdict", "OK: the client kept its schedule");
        h.putObject("run_cpu_seconds_by_thread")
                .put("event_loops", 0.5 * (s + 1))
                .put("log_writer", 0.1 * (s + 1));
        ObjectNode shard = m.putObject("shard");
        shard.put("index", s)
                .put("count", shards)
                .put("start_at", Instant.ofEpochSecond(0, START_AT).toString())
                .put("start_at_epoch_ns", START_AT)
                .put("host", "rubis-client-" + s);
        m.putObject("clock").put("anchor_epoch_ns", runStart - 1_500_000_000L).put("run_start_epoch_ns", runStart);
        m.putObject("jvm").put("version", "21");
        m.putArray("warnings");
        if (profile) {
            profile(m, s, reqs);
        }
        Files.writeString(
                dir.resolve("summary.json"),
                json.writerWithDefaultPrettyPrinter().writeValueAsString(m));
        return dir;
    }

    /**
     * A shard's {@code profile} and {@code intervals} as the client writes them: its share of the users planned, an
     * achieved figure a little above it (shard s: s tenths of a user still leaving), its own requests per interval, and
     * a stationarity verdict that shard 1 finds not steady in the second interval.
     */
    private void profile(ObjectNode m, int s, List<Req> reqs) {
        int share = (users - s + shards - 1) / shards;
        ObjectNode p = m.putObject("profile");
        p.put("file", "steps.txt").put("shape", "step").put("unit", "users").put("leave", "end-of-session");
        p.put("length_s", RUN_NS / 1e9).put("peak", users).put("sessions_left", 0);
        ArrayNode pts = p.putArray("points");
        ArrayNode arr = m.putArray("intervals");
        for (int i = 0; i < 2; i++) {
            int in = i;
            pts.addObject()
                    .put("at_s", i * PROFILE_STEP_NS / 1e9)
                    .put("value", users)
                    .put("mix", "browsing")
                    .put("think_scale", 1.0)
                    .put("line", i + 1);
            ObjectNode o = arr.addObject();
            o.put("index", i).put("from_s", i * PROFILE_STEP_NS / 1e9).put("to_s", (i + 1) * PROFILE_STEP_NS / 1e9);
            o.put("line", i + 1).put("mix", "browsing").put("think_scale", 1.0).put("flat", true);
            long from = START_AT + startOffsetNs[s] + UP_NS + i * PROFILE_STEP_NS;
            o.put("start_epoch_ns", from).put("end_epoch_ns", from + PROFILE_STEP_NS);
            o.put("seconds", PROFILE_STEP_NS / 1e9);
            o.put("users_planned", share).put("users_planned_start", share).put("users_planned_end", share);
            o.put("users_achieved", share + 0.1 * s)
                    .put("users_lag_mean", 0.1 * s)
                    .put("users_lag_max", s > 0 ? 1 : 0);
            o.put("lag_max_s", 0.5 * s);
            long n = reqs.stream().filter(r -> interval(r) == in).count();
            o.put("requests", n);
            ObjectNode h = o.putObject("client_health");
            h.put("cpu_mean_cores", 0.1).put("gc_max_pause_ms", s).put("samples", 3);
            h.putArray("causes");
            o.putObject("stationarity").put("verdict", i == 1 && s == 1 ? "not-steady" : "steady");
        }
    }
}
