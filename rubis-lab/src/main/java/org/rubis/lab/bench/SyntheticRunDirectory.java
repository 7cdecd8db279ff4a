package org.rubis.lab.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.log.RunLog;
import org.rubis.client.log.SessionRecord;
import org.rubis.client.workload.Interaction;
import org.rubis.format.io.AtomicFile;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.Phase;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.RunStatus;
import org.rubis.format.run.SessionEnd;

/**
 * A run directory of a chosen number of requests, written by the client's own log writer ({@link RunLog}: the same
 * requests.csv and sessions.csv lines, every column), so that the analysis can be timed on a run far longer than the
 * host could drive: closed users on dedicated connections, sessions of {@link #SESSION_REQUESTS} requests, a 5 % ramp
 * at each end, response times spread over two decades and one request in 200 answered with a server error. The
 * summary.json beside them holds what the report reads of it (how the run ended, its run phase and arrivals).
 */
final class SyntheticRunDirectory {

    static final int USERS = 1000;
    static final int SESSION_REQUESTS = 50;
    /** Each user's request period: 5,000 requests a second over the {@link #USERS}. */
    static final long PERIOD_NS = 200_000_000L;
    /** Records the writer may lag behind: bounds the queue (and the generator's heap). */
    private static final long MAX_QUEUED = 200_000;

    static final long T0 = 1_790_000_000_000_000_000L;
    private static final List<Interaction> STATES = List.of(Interaction.values());

    private SyntheticRunDirectory() {}

    /** Writes {@code requests} requests into {@code dir} (created, and emptied of the files it writes). */
    static void write(Path dir, long requests) throws IOException {
        Files.createDirectories(dir);
        for (Path p : new Path[] {RunFiles.requests(dir), RunFiles.sessions(dir), RunFiles.summaryJson(dir)}) {
            Files.deleteIfExists(p);
        }
        AtomicLong written = new AtomicLong();
        long[] sessionOf = new long[USERS];
        int[] indexOf = new int[USERS];
        int[] errorsOf = new int[USERS];
        long rampEnd = requests / 20;
        long runEnd = requests - requests / 20;
        SplittableRandom random = new SplittableRandom(1);
        try (RunLog log = new RunLog(dir, r -> written.lazySet(written.get() + 1), s -> {})) {
            for (int u = 0; u < USERS; u++) {
                sessionOf[u] = u;
            }
            long nextSession = USERS;
            for (long k = 0; k < requests; k++) {
                int u = (int) (k % USERS);
                long intended = T0 + (k / USERS) * PERIOD_NS + u * (PERIOD_NS / USERS);
                long send = intended + random.nextLong(20_000, 200_000);
                long response = (long) (1_000_000 * Math.exp(random.nextDouble() * Math.log(100)));
                boolean error = random.nextInt(200) == 0;
                Phase phase = k < rampEnd ? Phase.UP : k < runEnd ? Phase.RUN : Phase.DOWN;
                int index = indexOf[u]++;
                errorsOf[u] += error ? 1 : 0;
                log.add(new RequestRecord(
                        sessionOf[u],
                        "user" + u,
                        index,
                        STATES.get((int) ((sessionOf[u] + index) % STATES.size())),
                        "/rubis/" + STATES.get(index % STATES.size()).label(),
                        phase,
                        intended,
                        send,
                        response / 3,
                        response,
                        2_000 + random.nextInt(20_000),
                        error ? 500 : 200,
                        error ? ErrorClass.HTTP_STATUS : null,
                        false,
                        Long.toString(sessionOf[u]),
                        index == 0,
                        "dedicated",
                        0,
                        0,
                        0,
                        phase == Phase.RUN ? 0 : -1,
                        "127.0.0.1:" + (10_000 + sessionOf[u] % 50_000),
                        null));
                if (indexOf[u] == SESSION_REQUESTS || k + USERS >= requests) {
                    long start = T0 + (k / USERS - index) * PERIOD_NS + u * (PERIOD_NS / USERS);
                    log.add(new SessionRecord(
                            sessionOf[u],
                            u,
                            "user" + u,
                            start,
                            start + 50_000,
                            send + response,
                            indexOf[u],
                            errorsOf[u],
                            indexOf[u] == SESSION_REQUESTS ? SessionEnd.END_OF_SESSION : SessionEnd.RUN_ENDED));
                    sessionOf[u] = nextSession++;
                    indexOf[u] = 0;
                    errorsOf[u] = 0;
                }
                while (k - written.get() > MAX_QUEUED) {
                    Thread.onSpinWait();
                }
            }
        }
        summary(dir, requests, rampEnd, runEnd);
    }

    /** Start of request {@code k}'s round (epoch ns). */
    private static long round(long k) {
        return T0 + (k / USERS) * PERIOD_NS;
    }

    private static void summary(Path dir, long requests, long rampEnd, long runEnd) throws IOException {
        ObjectNode s = new ObjectMapper().createObjectNode();
        s.put("status", RunStatus.COMPLETE.label());
        s.put("partial", false);
        s.put("backend", "dedicated");
        s.put("arrivals", "closed");
        s.put("requests", requests);
        s.put("run_seconds", (round(runEnd) - round(rampEnd)) / 1e9);
        s.putObject("clock").put("run_start_epoch_ns", round(rampEnd));
        AtomicFile.writeString(
                RunFiles.summaryJson(dir),
                new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(s) + "\n");
    }
}
