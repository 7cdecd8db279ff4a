package org.rubis.client.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rubis.format.schema.Cause;
import org.rubis.format.stats.ErrorShare;
import org.rubis.format.stats.WireAccuracy;

/**
 * Whether the run's numbers can be trusted, and if not, whom to blame: the CLIENT (its own CPU,
 * GC pauses, the lateness of its own threads), the HOST (other processes' CPU, the run queue,
 * steal time) or the SERVER (its own load, known for the embedded server only). Looking at the
 * client's send lateness alone blamed the client for a busy machine: lateness with an idle client
 * and busy neighbours is the host's doing.
 *
 * <p>Accuracy (how far the client's times are from the wire) is only known with a packet capture:
 * then the verdict is the measured client-minus-wire error judged by the one rule the wire check's
 * own line uses ({@link WireAccuracy}); without one it says so and gives the indicators. A run whose
 * error fails the rule names the CLIENT only when the client is further from the wire than the
 * reference probe, a minimal client measured in the same run; when the probe is as far, the error
 * is this host's floor and the verdict names the HOST (an idle VM whose wake-ups take a few hundred
 * microseconds fails the rule with any client). The run is INACCURATE either way: the probe says whom to
 * blame, never that the times are right, and the paragraph states the same verdict and cause as the
 * summary's accuracy line ({@link WireAccuracy#shortText}).
 *
 * <p>Whatever the client, host and server did, a run whose replies were mostly errors measured failures, not the
 * service: more than {@link ErrorShare#LIMIT} of the run phase's requests in error names the ERRORS (131 of 132
 * replies {@code http-503} once read OK).
 */
public final class Verdict {

    /** Send lateness p99 (ms, run phase) above which the schedule was not kept. */
    static final double LATENESS_LIMIT_MS = 5.0;
    /** Share of the cores the client may use before it is called CPU-bound. */
    static final double CLIENT_CPU_LIMIT = 0.8;
    /** A stop-the-world GC pause above this inflates response times visibly. */
    static final long GC_PAUSE_LIMIT_MS = 50;
    /** Other processes using this share of the cores (mean) delay the client's threads. */
    static final double HOST_OTHER_CPU_LIMIT = 0.25;
    /** Steal above this share of the cores: the hypervisor takes the CPU away. */
    static final double STEAL_LIMIT = 0.05;
    /** The embedded server using this share of the cores is loaded (and shares the client's machine). */
    static final double SERVER_CPU_LIMIT = 0.5;

    /** What the run observed. NaN (or a negative count) means unknown. */
    public record Evidence(
            int cores,
            double clientCpuCores,
            long gcMaxPauseMs,
            double p99LatenessMs,
            double wakeupLateP99Ms,
            double hostOtherCpuCores,
            double hostStealCores,
            double procsRunningMean,
            double serverCpuCores,
            boolean embeddedServer,
            String serverName) {

        /**
         * Evidence whose server, when watched, is the embedded one.
         *
         * @param embeddedServer whether the server's CPU was watched
         */
        public Evidence(
                int cores,
                double clientCpuCores,
                long gcMaxPauseMs,
                double p99LatenessMs,
                double wakeupLateP99Ms,
                double hostOtherCpuCores,
                double hostStealCores,
                double procsRunningMean,
                double serverCpuCores,
                boolean embeddedServer) {
            this(
                    cores,
                    clientCpuCores,
                    gcMaxPauseMs,
                    p99LatenessMs,
                    wakeupLateP99Ms,
                    hostOtherCpuCores,
                    hostStealCores,
                    procsRunningMean,
                    serverCpuCores,
                    embeddedServer,
                    embeddedServer ? "the embedded server" : null);
        }

        /** What the server figure is of, for the words: "the embedded server", "the target's processes (...)". */
        String server() {
            return serverName == null ? "the embedded server" : serverName;
        }
    }

    private final List<Cause> causes;
    private final List<String> findings;
    private final String text;

    private Verdict(List<Cause> causes, List<String> findings, String text) {
        this.causes = List.copyOf(causes);
        this.findings = List.copyOf(findings);
        this.text = text;
    }

    /** Each cause with its evidence figures, one string a cause ({@code CLIENT: it used 1.71 of 2 cores}). */
    public List<String> findings() {
        return findings;
    }

    /** The causes named (empty: nothing found). */
    public List<Cause> causes() {
        return causes;
    }

    public boolean suspect() {
        return !causes.isEmpty();
    }

    /** One paragraph: status, each cause with its evidence, and the accuracy statement. */
    public String text() {
        return text;
    }

    /**
     * @param accuracy null without a capture (accuracy then was not measured)
     */
    public static Verdict of(Evidence e, WireAccuracy accuracy) {
        return of(e, accuracy, ErrorShare.NONE, false);
    }

    /**
     * @param accuracy          null without a capture or with an incomplete one
     * @param errors            the run phase's errors
     * @param captureIncomplete a capture ran but lost packets (drops, a full disk): accuracy is then not vouched
     *                          for, which the statement says instead of "not measured (no packet capture)"
     */
    public static Verdict of(Evidence e, WireAccuracy accuracy, ErrorShare errors, boolean captureIncomplete) {
        List<Cause> causes = new ArrayList<>();
        List<String> findings = new ArrayList<>();
        boolean late = e.p99LatenessMs > LATENESS_LIMIT_MS;
        List<String> host = hostLoad(e);
        boolean hostBusy = !host.isEmpty();
        // Lateness the scheduler explains: an idle thread of ours woke that late too.
        boolean hostExplainsLateness = !Double.isNaN(e.wakeupLateP99Ms) && e.p99LatenessMs <= 2 * e.wakeupLateP99Ms + 1;
        boolean accurate = accuracy == null || accuracy.within();
        // An inaccurate run is the client's doing only if it is further from the wire than a minimal client on
        // this host (the reference probe, same run); otherwise it is the host's floor (and new connections' connects).
        boolean floor = !accurate && accuracy.floorExplains();
        List<String> client =
                clientLoad(e, late && !(hostBusy && hostExplainsLateness), accurate || floor ? null : accuracy);
        if (!client.isEmpty()) {
            causes.add(Cause.CLIENT);
            findings.add("CLIENT: " + String.join(", ", client));
        }
        if (hostBusy && late && client.isEmpty()) {
            host.add(f(
                    "the client's own CPU was %.2f cores and its idle threads woke as late, so its p99 send lateness"
                            + " of %.1f ms is the host's",
                    e.clientCpuCores, e.p99LatenessMs));
        }
        if (floor) {
            String connects = accuracy.newConnectionsText();
            host.add(f(
                    "its floor: the run's times are INACCURATE, %.1f us (mean) above the wire, over the %s, but %s,"
                            + " within that limit%s",
                    accuracy.meanUs(),
                    accuracy.limitText(),
                    accuracy.floorText(),
                    connects.isEmpty() ? "" : "; " + connects));
        }
        if (!host.isEmpty()) {
            causes.add(Cause.HOST);
            findings.add("HOST: " + String.join(", ", host));
        }
        String server = server(e, causes, findings);
        if (errors.high()) {
            causes.add(Cause.ERRORS);
            findings.add("ERRORS: " + errors.text());
        }
        String text = text(e, causes, findings, server, accuracy, accurate, captureIncomplete);
        String targetState = errors.targetStateText();
        return new Verdict(
                causes, findings, targetState.isEmpty() ? text : text + " Target state: " + targetState + ".");
    }

    /** HOST: other processes, the run queue, the hypervisor, the scheduler's wake-ups. */
    private static List<String> hostLoad(Evidence e) {
        List<String> host = new ArrayList<>();
        if (e.hostOtherCpuCores >= HOST_OTHER_CPU_LIMIT * e.cores) {
            host.add(f("other processes used %.2f of %d cores", e.hostOtherCpuCores, e.cores));
        }
        if (e.procsRunningMean > e.cores + 1) {
            host.add(f("%.1f runnable threads on %d cores on average (procs_running)", e.procsRunningMean, e.cores));
        }
        if (e.hostStealCores >= STEAL_LIMIT * e.cores) {
            host.add(f("the hypervisor stole %.2f cores", e.hostStealCores));
        }
        if (e.wakeupLateP99Ms > LATENESS_LIMIT_MS) {
            host.add(f("an idle client thread woke up to %.1f ms late (p99)", e.wakeupLateP99Ms));
        }
        return host;
    }

    /**
     * CLIENT: its own CPU, GC, lateness it cannot blame on the host ({@code lateItself}), and times further from the
     * wire
     * than the host's floor explains ({@code inaccurate}, null when they are not).
     */
    private static List<String> clientLoad(Evidence e, boolean lateItself, WireAccuracy inaccurate) {
        List<String> client = new ArrayList<>();
        if (e.clientCpuCores > CLIENT_CPU_LIMIT * e.cores) {
            client.add(f("it used %.2f of %d cores", e.clientCpuCores, e.cores));
        }
        if (e.gcMaxPauseMs > GC_PAUSE_LIMIT_MS) {
            client.add("GC pauses up to " + e.gcMaxPauseMs + " ms");
        }
        if (lateItself) {
            client.add(f(
                    "p99 send lateness %.1f ms (> %.0f ms) while the host's other load was not to blame",
                    e.p99LatenessMs, LATENESS_LIMIT_MS));
        }
        if (inaccurate != null) {
            client.add(f(
                    "its times were %.1f us (mean) above the wire, over the %s (%s)%s",
                    inaccurate.meanUs(),
                    inaccurate.limitText(),
                    inaccurate.splitText(),
                    inaccurate.floorText().isEmpty()
                            ? "; run with --probe to measure this host's floor beside it"
                            : "; " + inaccurate.floorText()));
        }
        return client;
    }

    /**
     * SERVER: known for the embedded server and for a target's processes on this host (the one listening on its port,
     * those named). Its words when it is not a cause (null when it is: then a finding).
     */
    private static String server(Evidence e, List<Cause> causes, List<String> findings) {
        if (!e.embeddedServer) {
            return "server load unknown (not the embedded server, and no process of the target found on this host)";
        }
        if (e.serverCpuCores >= SERVER_CPU_LIMIT * e.cores) {
            causes.add(Cause.SERVER);
            findings.add(f("SERVER: %s used %.2f of %d cores of this machine", e.server(), e.serverCpuCores, e.cores));
            return null;
        }
        return Double.isNaN(e.serverCpuCores)
                ? e.server().replaceFirst("^the ", "") + " CPU unknown"
                : f("%s %.2f cores", e.server().replaceFirst("^the ", ""), e.serverCpuCores);
    }

    /**
     * The paragraph: OK or SUSPECT, the findings (or the figures that found nothing), the server, the accuracy
     * statement.
     */
    private static String text(
            Evidence e,
            List<Cause> causes,
            List<String> findings,
            String server,
            WireAccuracy accuracy,
            boolean accurate,
            boolean captureIncomplete) {
        StringBuilder b = new StringBuilder(causes.isEmpty() ? "OK" : "SUSPECT");
        b.append(": ");
        if (findings.isEmpty()) {
            b.append(f(
                    "no cause found: client %.2f cores, GC max %d ms, run-phase p99 send lateness %.3f ms; host %s, p99 wake-up delay %.1f ms",
                    e.clientCpuCores, e.gcMaxPauseMs, e.p99LatenessMs, hostText(e), e.wakeupLateP99Ms));
        } else {
            b.append(String.join("; ", findings));
            if (!causes.contains(Cause.CLIENT)) {
                b.append(f(
                        accurate
                                ? "; the client itself was fine (%.2f cores, GC max %d ms)"
                                : "; the client's own load was fine (%.2f cores, GC max %d ms), its times inaccurate"
                                        + " all the same",
                        e.clientCpuCores,
                        e.gcMaxPauseMs));
            }
        }
        if (server != null) {
            b.append("; ").append(server);
        }
        b.append(". ");
        if (accuracy == null && captureIncomplete) {
            b.append("Accuracy not vouched for: the packet capture is INCOMPLETE (see the wire check): the figures"
                    + " above are indicators only.");
        } else if (accuracy == null) {
            b.append("Accuracy not measured (no packet capture): the figures above are indicators only.");
        } else {
            b.append(f(
                    "Accuracy measured on the wire: %s: client minus wire %.1f us mean, %.1f us p99 on %d requests (%s"
                            + " the %s).",
                    accuracy.shortText(),
                    accuracy.meanUs(),
                    accuracy.p99Us(),
                    accuracy.requests(),
                    accurate ? "within" : "OUTSIDE",
                    accuracy.limitText()));
        }
        return b.toString();
    }

    private static String hostText(Evidence e) {
        if (Double.isNaN(e.hostOtherCpuCores)) {
            return "figures unavailable (no /proc)";
        }
        return f(
                "other processes %.2f cores, %.1f runnable threads, steal %.2f cores",
                e.hostOtherCpuCores, e.procsRunningMean, e.hostStealCores);
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
