package org.rubis.lab.reproduce;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.XYChart;
import org.rubis.analysis.io.CsvStream;
import org.rubis.analysis.report.Charts;
import org.rubis.client.config.BackendKind;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.format.run.RunFiles;

/**
 * FINDINGS A.3: a millisecond clock reports sub-millisecond responses as 0 ms. Every request of a
 * run is timed in nanoseconds; the millisecond clock the original used ({@code currentTimeMillis})
 * would have reported {@code floor(end / 1 ms) - floor(send / 1 ms)} for the same request, which is
 * computed here from the logged epoch instants, so both clocks are compared on identical requests.
 */
final class MillisecondTimers implements Experiment {

    @Override
    public String name() {
        return "ms-timers";
    }

    @Override
    public String title() {
        return "Millisecond timers";
    }

    @Override
    public String source() {
        return "Hashemian, Krishnamurthy, Arlitt, Section III (FINDINGS A.3)";
    }

    @Override
    public String published() {
        return "Many responses reported as 0 ms until the client measured with nanoTime.";
    }

    @Override
    public Finding run(Lab lab) throws Exception {
        int n = lab.pick(50, 200);
        ClientCommandLine client = ClientCommandLine.run()
                .users(n)
                .thinkScale(0.1)
                .backend(BackendKind.DEDICATED)
                .rampUp(Duration.ofSeconds(1))
                .duration(lab.pick(Duration.ofSeconds(3), Duration.ofSeconds(4), Duration.ofSeconds(20)))
                .rampDown(Duration.ZERO)
                .seed(1);
        ClientRun r = lab.run(name(), "dedicated-" + n, ClientSpec.of(client));
        if (!r.ok()) {
            return Finding.failed(this, "the run sent no requests; " + r.where(), List.of(r.dir()));
        }
        Values nsClock = new Values();
        Values msClock = new Values();
        new CsvStream(RunFiles.requests(r.dir())).forEach(List.of("send_epoch_ns", "response_ns", "error"), row -> {
            if (!row.get("error").isEmpty()) {
                return;
            }
            long send = row.getLong("send_epoch_ns");
            long resp = row.getLong("response_ns");
            nsClock.add(resp);
            // what two currentTimeMillis readings around the same request would have said
            msClock.add((Math.floorDiv(send + resp, 1_000_000L) - Math.floorDiv(send, 1_000_000L)) * 1_000_000L);
        });
        if (nsClock.n == 0) {
            return Finding.failed(this, "no successful requests; " + r.where(), List.of(r.dir()));
        }
        long[] nsv = nsClock.sorted();
        long[] msv = msClock.sorted();
        long[] count = {
            nsv.length,
            Arrays.stream(nsv).filter(v -> v == 0).count(),
            Arrays.stream(msv).filter(v -> v == 0).count()
        };
        double zeroShare = (double) count[2] / count[0];
        double subMs = (double) Arrays.stream(nsv).filter(v -> v < 1_000_000L).count() / count[0];
        XYChart c = Charts.xy(
                Figure.STYLE,
                "Response time CDF: nanosecond clock vs millisecond clock",
                "response time (ms)",
                "fraction of responses");
        cdf(c, "System.nanoTime (what we log)", nsv);
        cdf(c, "currentTimeMillis (what the original would report)", msv);
        c.getStyler().setXAxisMax(Math.max(3.0, nsv[(int) (0.95 * (nsv.length - 1))] / 1e6));
        Figure fig = Figure.save(
                c,
                lab.out(),
                "fig-ms-timers",
                "CDF of the same requests' response times as each clock reports them (x cut at the 95th percentile). The millisecond clock's "
                        + "staircase starts with its share of 0 ms responses at x = 0.");
        String measured = String.format(
                Locale.ROOT,
                "%.1f %% of %d responses would read 0 ms on a millisecond clock (%.1f %% took under 1 ms); "
                        + "with nanoTime %d read 0",
                100 * zeroShare,
                count[0],
                100 * subMs,
                count[1]);
        boolean holds = zeroShare >= 0.05 && count[1] == 0;
        String why = holds
                ? "on loopback most responses take under a millisecond, so a millisecond clock reports a large share as 0 ms, "
                        + "while nanosecond timing gives every response a non-zero time"
                : count[1] > 0
                        ? "some responses read 0 ns: the nanosecond clock is not doing its job"
                        : "too few sub-millisecond responses on this target to show the effect (a remote or slow server's responses exceed 1 ms)";
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("responses", count[0])
                .put("ms_clock_zero", count[2])
                .put("ms_clock_zero_share", zeroShare)
                .put("ns_zero", count[1])
                .put("sub_ms_share", subMs)
                .put("median_ms", nsv[nsv.length / 2] / 1e6);
        return Finding.of(this, measured, Verdict.of(holds), why, List.of(fig), data, List.of(r.dir()));
    }

    /** A growable list of long values. */
    private static final class Values {
        long[] v = new long[1024];
        int n;

        void add(long x) {
            if (n == v.length) {
                v = Arrays.copyOf(v, n * 2);
            }
            v[n++] = x;
        }

        long[] sorted() {
            long[] s = Arrays.copyOf(v, n);
            Arrays.sort(s);
            return s;
        }
    }

    private static void cdf(XYChart c, String name, long[] sorted) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        int step = Math.max(1, sorted.length / 2000);
        for (int i = 0; i < sorted.length; i += step) {
            xs.add(sorted[i] / 1e6);
            ys.add((double) (i + 1) / sorted.length);
        }
        xs.add(sorted[sorted.length - 1] / 1e6);
        ys.add(1.0);
        Charts.addLine(c, name, xs, ys);
    }
}
