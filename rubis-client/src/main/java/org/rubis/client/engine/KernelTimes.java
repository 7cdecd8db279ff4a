package org.rubis.client.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.rubis.client.backend.KernelBackend;
import org.rubis.client.backend.kernel.ClockAnchor;
import org.rubis.client.log.KernelMarks;
import org.rubis.client.log.RecordTap;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.report.SummarySection;

/**
 * The kernel backend's account of a run, measured in every run without a capture: which clock the published times
 * come from, how many requests have the kernel's times, the anchor that maps the kernel's clock onto the run's and
 * how far it drifted, and the client's own cost per request, user-space minus kernel: on the send side from the send
 * mark to the first byte's transmit stamp (reused connections; a new one's connect is in it), on the receive side
 * from the last byte's receive stamp to the user-space end mark. It reads every record on the log writer's thread
 * (off the timing path) and adds the {@code kernel_timestamps} section to the summary.
 */
final class KernelTimes implements RunObserver, RecordTap {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final boolean publishKernel;
    private final Histogram send = new Histogram(3_600_000_000_000L, 3);
    private final Histogram receive = new Histogram(3_600_000_000_000L, 3);
    private long kernelPublished;
    private long userPublished;
    private long withoutTxStamp;
    private long negative;
    private volatile KernelBackend backend;
    private volatile long driftNs;

    KernelTimes(boolean publishKernel) {
        this.publishKernel = publishKernel;
    }

    /** The run's backend, once made: its anchor and read counts go into the section. */
    void backend(KernelBackend b) {
        b.publishKernelTimes(publishKernel);
        backend = b;
    }

    @Override
    public RecordTap recordTap() {
        return this;
    }

    @Override
    public synchronized void request(RequestRecord r) {
        KernelMarks k = r.kernel();
        if (k == null) {
            return; // not the kernel backend's, or a request that failed before any stamp
        }
        if (k.kernelPublished()) {
            kernelPublished++;
        } else {
            userPublished++;
        }
        if (k.txFirstEpochNs() == 0) {
            withoutTxStamp++;
        } else if (!r.newConnection()) {
            record(send, k.sendCostNs());
        }
        if (k.rxLastEpochNs() != 0) {
            record(receive, k.receiveCostNs());
        }
    }

    private void record(Histogram h, long ns) {
        if (ns < 0) {
            negative++;
            ns = 0;
        }
        h.recordValue(ns);
    }

    @Override
    public void afterRun(Path runDir) {
        KernelBackend b = backend;
        if (b != null) {
            driftNs = b.anchor().driftNanos();
        }
    }

    @Override
    public synchronized SummarySection summarySection(Path runDir) {
        KernelBackend b = backend;
        ObjectNode n = JSON.createObjectNode();
        n.put("published_clock", publishKernel ? "kernel" : "user");
        n.put("requests_kernel_times", kernelPublished);
        n.put("requests_user_times", userPublished);
        n.put("requests_without_tx_stamp", withoutTxStamp);
        if (b != null) {
            ClockAnchor a = b.anchor();
            ObjectNode anchor = n.putObject("anchor");
            anchor.put("realtime_minus_nanotime_ns", a.offsetNanos());
            anchor.put("uncertainty_ns", a.uncertaintyNanos());
            anchor.put("drift_at_end_ns", driftNs);
            long[] reads = b.readStamps();
            n.put("reads", reads[0]);
            n.put("reads_without_rx_stamp", reads[1]);
        }
        n.put("costs_below_zero", negative);
        cost(n.putObject("client_send_cost_us"), send);
        cost(n.putObject("client_receive_cost_us"), receive);
        String text = text(n);
        String clock = publishKernel ? "kernel (SO_TIMESTAMPING software stamps)" : null;
        return new Section("kernel_timestamps", n, text, clock);
    }

    private static void cost(ObjectNode n, Histogram h) {
        n.put("count", h.getTotalCount());
        if (h.getTotalCount() == 0) {
            return;
        }
        n.put("p50", us(h.getValueAtPercentile(50)));
        n.put("p99", us(h.getValueAtPercentile(99)));
        n.put("max", us(h.getMaxValue()));
    }

    private static double us(long ns) {
        return Math.round(ns / 100.0) / 10.0;
    }

    private static String text(ObjectNode n) {
        StringBuilder b = new StringBuilder("Kernel time stamps (the client's own cost, without a capture)\n");
        b.append(String.format(
                Locale.ROOT,
                "  published times      %s clock: %d requests with the kernel's times, %d with user-space times\n",
                n.get("published_clock").asText(),
                n.get("requests_kernel_times").asLong(),
                n.get("requests_user_times").asLong()));
        b.append(costLine(
                "  client cost, send   ",
                n.get("client_send_cost_us"),
                "send mark to first byte at the device, reused connections"));
        b.append(costLine(
                "  client cost, receive", n.get("client_receive_cost_us"), "last byte at the device to the end mark"));
        if (n.has("anchor")) {
            JsonNode a = n.get("anchor");
            b.append(String.format(
                    Locale.ROOT,
                    "  clock anchor         CLOCK_REALTIME - nanoTime within %.1f us; drift over the run %.1f us\n",
                    a.get("uncertainty_ns").asLong() / 1000.0,
                    a.get("drift_at_end_ns").asLong() / 1000.0));
        }
        return b.toString();
    }

    private static String costLine(String name, JsonNode c, String what) {
        if (c.get("count").asLong() == 0) {
            return name + "  none measured (" + what + ")\n";
        }
        return String.format(
                Locale.ROOT,
                "%s  p50 %.1f us, p99 %.1f us, max %.1f us over %d requests (%s)\n",
                name,
                c.get("p50").asDouble(),
                c.get("p99").asDouble(),
                c.get("max").asDouble(),
                c.get("count").asLong(),
                what);
    }
}
