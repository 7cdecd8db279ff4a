package org.rubis.client.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The whole machine's CPU, run queue and steal time from Linux's {@code /proc/stat} and
 * {@code /proc/loadavg}: what other processes did to the client's measurement. A client that is
 * idle itself still measures late and slow when other processes keep the cores busy (its threads
 * wait in the run queue) or the hypervisor steals them; its own CPU cannot show that.
 * On a system without {@code /proc} every figure is unavailable (NaN).
 */
final class HostStat {

    private static final Path STAT = Path.of("/proc/stat");
    private static final Path LOADAVG = Path.of("/proc/loadavg");

    /** Cumulative CPU jiffies of all cores and the instantaneous figures. */
    record Sample(long total, long idle, long steal, int procsRunning, double load1) {
        static final Sample NONE = new Sample(-1, -1, -1, -1, Double.NaN);

        boolean available() {
            return total >= 0;
        }
    }

    /** Busy and steal cores between two samples (NaN when unavailable). */
    record Interval(double busyCores, double stealCores) {}

    private HostStat() {}

    static Sample sample() {
        // Parsed by hand from the bytes: sampled once a second, this code never gets compiled, and the
        // interpreter makes readAllLines/split cost a sizeable part of the idle client's CPU.
        try {
            return parse(Files.readAllBytes(STAT), Files.readAllBytes(LOADAVG));
        } catch (IOException | RuntimeException e) {
            return Sample.NONE;
        }
    }

    /** A sample from the text of {@code /proc/stat} and {@code /proc/loadavg}. */
    static Sample parse(byte[] stat, byte[] la) {
        try {
            int at = indexOf(stat, "cpu ", 0);
            if (at < 0) {
                return Sample.NONE;
            }
            // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest is inside user)
            long[] f = new long[8];
            int[] pos = {at + 4};
            int n = 0;
            for (long v; n < f.length && (v = nextNumber(stat, pos)) >= 0; ) {
                f[n++] = v;
            }
            if (n < 4) {
                return Sample.NONE;
            }
            long total = 0;
            for (int i = 0; i < n; i++) {
                total += f[i];
            }
            long idle = f[3] + f[4];
            long steal = f[7];
            int running = -1;
            int pr = indexOf(stat, "procs_running ", 0);
            if (pr >= 0) {
                pos[0] = pr + "procs_running ".length();
                running = (int) nextNumber(stat, pos);
            }
            double load1 = Double.NaN;
            int sp = 0;
            while (sp < la.length && la[sp] != ' ' && la[sp] != '\n') {
                sp++;
            }
            if (sp > 0) {
                load1 = Double.parseDouble(new String(la, 0, sp, StandardCharsets.US_ASCII));
            }
            return new Sample(total, idle, steal, running, load1);
        } catch (RuntimeException e) {
            return Sample.NONE;
        }
    }

    /** Skips spaces, parses the digits at {@code pos[0]} and moves past them; -1 at the end of the line. */
    private static long nextNumber(byte[] b, int[] pos) {
        int i = pos[0];
        while (i < b.length && b[i] == ' ') {
            i++;
        }
        if (i >= b.length || b[i] < '0' || b[i] > '9') {
            return -1;
        }
        long v = 0;
        while (i < b.length && b[i] >= '0' && b[i] <= '9') {
            v = v * 10 + (b[i++] - '0');
        }
        pos[0] = i;
        return v;
    }

    private static int indexOf(byte[] b, String s, int from) {
        outer:
        for (int i = from; i <= b.length - s.length(); i++) {
            if (i > 0 && b[i - 1] != '\n') {
                continue; // only at the start of a line
            }
            for (int j = 0; j < s.length(); j++) {
                if (b[i + j] != s.charAt(j)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** CPU between two samples, in cores of this machine. */
    static Interval between(Sample a, Sample b, int cores) {
        if (!a.available() || !b.available() || b.total <= a.total) {
            return new Interval(Double.NaN, Double.NaN);
        }
        double dt = b.total - a.total;
        double busy = (dt - (b.idle - a.idle) - (b.steal - a.steal)) / dt * cores;
        double steal = (b.steal - a.steal) / dt * cores;
        return new Interval(Math.max(0, busy), Math.max(0, steal));
    }
}
