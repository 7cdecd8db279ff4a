package org.rubis.analysis.export;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.io.CsvStream;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.format.run.Columns;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.SessionEnd;
import org.rubis.format.schema.SummaryJson;

/**
 * Exports the workload a run executed so that httperf replays it (FINDINGS A.6): a
 * {@code --wsesslog} session file (each session's request paths and the think time the client
 * executed after each request) and the session inter-arrival sequence. Sessions are written in
 * the order they started; memory holds only sessions still being assembled.
 */
public final class HttperfExport {

    /** One exported session. */
    public record Session(long id, long firstSend, List<String> paths, List<Double> thinkSeconds) {}

    private final RunDirectory run;

    public HttperfExport(RunDirectory run) {
        this.run = run;
    }

    /** Writes sessions.wsesslog, interarrivals.txt and README.txt into {@code out}; returns the session count. */
    public int write(Path out) throws IOException {
        Files.createDirectories(out);
        Map<Long, Integer> expected = expectedRequests();
        // Sessions being assembled, keyed by (first send, id) so they are written in start order.
        TreeMap<long[], Builder> open =
                new TreeMap<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        Map<Long, Builder> byId = new HashMap<>();
        List<Long> starts = new ArrayList<>();
        int[] written = {0};
        double[] longestThink = {0};
        try (BufferedWriter w = Files.newBufferedWriter(out.resolve("sessions.wsesslog"), StandardCharsets.UTF_8)) {
            w.write("# httperf --wsesslog session file exported by rubis-analysis from "
                    + run.dir().toAbsolutePath() + "\n");
            w.write("# one session per block; think= is the think time (s) the client executed after the request\n\n");
            new CsvStream(run.requests()).forEach(Columns.REQUESTS_REQUIRED, r -> {
                long id = r.getLong("session_id");
                Builder b = byId.get(id);
                long send = r.getLong("send_epoch_ns");
                if (b == null) {
                    if (r.getInt("request_index") != 0) {
                        throw new AnalysisException(
                                run.requests() + ":" + r.line() + ": session " + id + " starts at request_index "
                                        + r.get("request_index") + "; expected 0 (is the log complete?)");
                    }
                    b = new Builder(id, send, expected.getOrDefault(id, -1));
                    byId.put(id, b);
                    open.put(new long[] {send, id}, b);
                    starts.add(send);
                }
                b.add(r.get("path"), send, r.getLong("intended_send_epoch_ns"), send + r.getLong("response_ns"));
                flushComplete(open, byId, w, written, longestThink);
            });
            for (Builder b : open.values()) {
                b.complete = true;
            }
            flushComplete(open, byId, w, written, longestThink);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        double meanGapS = writeInterarrivals(out, starts);
        Target target = Target.of(run, longestThink[0]);
        String readme = "Replay of run " + run.dir().toAbsolutePath() + " (" + written[0] + " sessions)\n\n"
                + "httperf (sessions in the same order, Poisson arrivals with the run's mean inter-arrival time):\n"
                + String.format(
                        Locale.ROOT,
                        "  httperf --hog --server %s --port %d%s --wsesslog=%d,0,sessions.wsesslog --period=e%.6f%n",
                        target.host(),
                        target.port(),
                        target.tls() ? " --ssl" : "",
                        written[0],
                        meanGapS)
                + target.note()
                + closedNote(run)
                + "\nThe exact arrival instants are in interarrivals.txt (ms, one per line). Stock httperf takes only a distribution in\n"
                + "--period; the paper's modified httperf, or rubis-client itself, replays the exact sequence:\n"
                + "  java -jar rubis-client.jar run --arrivals hybrid --interarrival-file interarrivals.txt"
                + target.clientTarget() + "\n";
        Files.writeString(out.resolve("README.txt"), readme);
        return written[0];
    }

    /** The requests each session that began sent, from sessions.csv (none when the run has no such file). */
    private Map<Long, Integer> expectedRequests() throws IOException {
        Map<Long, Integer> expected = new HashMap<>();
        if (Files.isRegularFile(run.sessions())) {
            new CsvStream(run.sessions()).forEach(Columns.SESSIONS_REQUIRED, r -> {
                SessionEnd end = SessionEnd.parse(r.get("end_reason"));
                if (end == null || end.began()) { // a dropped session sent nothing
                    expected.put(r.getLong("session_id"), r.getInt("requests"));
                }
            });
        }
        return expected;
    }

    /** Writes interarrivals.txt (the gaps between the sessions' starts, ms); returns the mean gap in seconds. */
    private static double writeInterarrivals(Path out, List<Long> starts) throws IOException {
        long[] sorted = starts.stream().mapToLong(Long::longValue).sorted().toArray();
        StringBuilder ia = new StringBuilder(
                "# session inter-arrival times in ms (rubis-client run --interarrival-file replays them)\n");
        double sumGaps = 0;
        for (int i = 0; i < sorted.length; i++) {
            double gap = i == 0 ? 0 : (sorted[i] - sorted[i - 1]) / 1e6;
            sumGaps += gap;
            ia.append(String.format(Locale.ROOT, "%.6f%n", gap));
        }
        Files.writeString(out.resolve("interarrivals.txt"), ia);
        return sorted.length > 1 ? sumGaps / (sorted.length - 1) / 1000 : 1;
    }

    /** How the run's sessions map onto httperf's arrivals when the run had a closed population. */
    private static String closedNote(RunDirectory run) {
        SummaryJson summary = run.record();
        if (summary == null || !"closed".equals(summary.arrivals())) {
            return "";
        }
        return "\nThis was a closed run (" + summary.users()
                + " emulated users): each user started its next session only\n"
                + "after its previous one ended and a think time passed, so at most "
                + summary.users() + " sessions were open at once\n"
                + "and a slower server lowered the session rate. httperf's --wsesslog starts the sessions as an open stream\n"
                + "(--period): each session arrives on schedule whether or not earlier ones have ended. The replay therefore\n"
                + "offers the same sessions at the run's mean session rate, but neither caps concurrency at the run's user\n"
                + "count nor slows down with the server: it is the open-loop counterpart of the run, not a copy of it.\n";
    }

    /** A server model's name as the embedded server takes it. */
    private static final Pattern MODEL = Pattern.compile("[a-z]+(-[a-z]+)*");

    private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9_./:@%+=,-]+");

    /**
     * A word from summary.json as the README's shell commands may hold it: as it is when it has nothing a shell
     * interprets, else in single quotes ({@code '} as {@code '\''}), so that a copied command never runs what a
     * summary says ({@code server.model = "event; touch X"}).
     */
    static String shellWord(String s) {
        return SHELL_SAFE.matcher(s).matches() ? s : "'" + s.replace("'", "'\\''") + "'";
    }

    /** The run's target as httperf needs it: host, port, TLS, and a note when the target was the embedded server. */
    record Target(String host, int port, boolean tls, String note, String clientTarget) {

        /**
         * httperf keeps a session's connection across its think times and does not reopen one the server closed meanwhile
         * (the request fails, connreset): the server's keep-alive timeout must outlast the longest think time of the export.
         */
        static Target of(RunDirectory run, double longestThinkS) {
            long keepAliveMs = Math.max(5000, (long) Math.ceil(longestThinkS + 1) * 1000);
            String keepAlive = String.format(
                    Locale.ROOT,
                    "httperf keeps each session's connection open across its think times (up to %.1f s "
                            + "here) and does not reopen one the server closed meanwhile: that request fails (connreset).%n",
                    longestThinkS);
            SummaryJson summary = run.record();
            String t = summary == null || summary.target() == null ? "" : summary.target();
            if (t.startsWith("http://") || t.startsWith("https://")) {
                URI u = URI.create(t);
                boolean tls = "https".equals(u.getScheme());
                int port = u.getPort() >= 0 ? u.getPort() : tls ? 443 : 80;
                return new Target(
                        shellWord(u.getHost()),
                        port,
                        tls,
                        keepAlive + "The target's keep-alive timeout must therefore exceed " + keepAliveMs / 1000
                                + " s (Apache: KeepAliveTimeout; lighttpd: server.max-keep-alive-idle).\n",
                        " --target " + shellWord(t));
            }
            String url = embeddedUrl(run);
            if (url != null) {
                URI u = URI.create(url);
                boolean tls = "https".equals(u.getScheme());
                String written = summary == null
                                || summary.server() == null
                                || summary.server().model() == null
                        ? "event"
                        : summary.server().model();
                // Copied into a shell command: only a model's name (event, prefork) goes in as it is.
                String model = MODEL.matcher(written).matches() ? written : shellWord(written);
                return new Target(
                        shellWord(u.getHost()),
                        u.getPort(),
                        tls,
                        "The run used the embedded server, which has stopped; start one on the same port first, keeping idle connections "
                                + "open longer than the longest think time (its default closes them after 5 s):\n"
                                + "  java -jar rubis-server.jar --port " + u.getPort() + " --model " + model
                                + (tls ? " --tls" : "")
                                + " --keepalive-ms " + keepAliveMs + "\n" + keepAlive,
                        "");
            }
            return new Target(
                    "127.0.0.1",
                    8080,
                    false,
                    "The run's target is not recorded (no summary.json or server log): 127.0.0.1:8080 is a placeholder.\n"
                            + keepAlive + "The target's keep-alive timeout must therefore exceed " + keepAliveMs / 1000
                            + " s.\n",
                    "");
        }

        /** The URL the embedded server printed when it was ready (server/server.log), or null. */
        private static String embeddedUrl(RunDirectory run) {
            Path log = RunFiles.serverLog(run.dir());
            if (!Files.isRegularFile(log)) {
                return null;
            }
            try (var lines = Files.lines(log, StandardCharsets.UTF_8)) {
                return lines.filter(l -> l.startsWith(READY))
                        .findFirst()
                        .map(l -> l.substring(READY.length()).split("\\s+")[0].replaceFirst("/PHP/?$", ""))
                        .orElse(null);
            } catch (IOException | UncheckedIOException e) {
                return null;
            }
        }

        /** The line rubis-server prints when it accepts requests (ServerMain.READY; not a dependency of this module). */
        private static final String READY = "rubis-server ready: ";
    }

    private static void flushComplete(
            TreeMap<long[], Builder> open,
            Map<Long, Builder> byId,
            BufferedWriter w,
            int[] written,
            double[] longestThink) {
        while (!open.isEmpty() && open.firstEntry().getValue().complete) {
            Builder b = open.pollFirstEntry().getValue();
            byId.remove(b.id);
            try {
                longestThink[0] = Math.max(longestThink[0], b.write(w));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            written[0]++;
        }
    }

    private static final class Builder {
        final long id;
        final long firstSend;
        final int expected;
        final List<String> paths = new ArrayList<>();
        final List<Long> sends = new ArrayList<>();
        final List<Long> dones = new ArrayList<>();
        boolean complete;

        Builder(long id, long firstSend, int expected) {
            this.id = id;
            this.firstSend = firstSend;
            this.expected = expected;
        }

        void add(String path, long send, long intended, long done) {
            paths.add(path);
            sends.add(send);
            dones.add(done);
            complete = expected >= 0 && paths.size() >= expected;
        }

        /** Writes the session; returns its longest think time (s). */
        double write(BufferedWriter w) throws IOException {
            double longest = 0;
            w.write("# session " + id + "\n");
            for (int i = 0; i < paths.size(); i++) {
                w.write(paths.get(i));
                if (i + 1 < paths.size()) {
                    double think = Math.max(0, sends.get(i + 1) - dones.get(i)) / 1e9;
                    longest = Math.max(longest, think);
                    w.write(String.format(Locale.ROOT, " think=%.6f", think));
                }
                w.write('\n');
            }
            w.write('\n');
            return longest;
        }
    }

    /** Reads a session file back (the test of the export, and a check for users). */
    public static List<Session> read(Path wsesslog) throws IOException {
        List<Session> out = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        List<Double> thinks = new ArrayList<>();
        long id = -1;
        for (String line : Files.readAllLines(wsesslog, StandardCharsets.UTF_8)) {
            if (line.startsWith("# session ")) {
                id = Long.parseLong(line.substring(10).strip());
                continue;
            }
            if (line.startsWith("#")) {
                continue;
            }
            if (line.isBlank()) {
                if (!paths.isEmpty()) {
                    out.add(new Session(id, 0, List.copyOf(paths), List.copyOf(thinks)));
                    paths.clear();
                    thinks.clear();
                }
                continue;
            }
            String[] f = line.strip().split("\\s+");
            paths.add(f[0]);
            for (int i = 1; i < f.length; i++) {
                if (f[i].startsWith("think=")) {
                    thinks.add(Double.parseDouble(f[i].substring(6)));
                }
            }
        }
        if (!paths.isEmpty()) {
            out.add(new Session(id, 0, List.copyOf(paths), List.copyOf(thinks)));
        }
        return out;
    }
}
