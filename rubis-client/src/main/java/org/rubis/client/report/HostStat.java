package org.rubis.client.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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
        try {
            long total = -1;
            long idle = 0;
            long steal = 0;
            int running = -1;
            for (String line : Files.readAllLines(STAT)) {
                if (line.startsWith("cpu ")) {
                    String[] f = line.trim().split("\\s+");
                    // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest is inside user)
                    total = 0;
                    for (int i = 1; i < Math.min(f.length, 9); i++) {
                        total += Long.parseLong(f[i]);
                    }
                    idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
                    steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
                } else if (line.startsWith("procs_running ")) {
                    running = Integer.parseInt(line.substring("procs_running ".length()).trim());
                }
            }
            double load1 = Double.NaN;
            List<String> la = Files.readAllLines(LOADAVG);
            if (!la.isEmpty()) {
                load1 = Double.parseDouble(la.get(0).trim().split("\\s+")[0]);
            }
            return new Sample(total, idle, steal, running, load1);
        } catch (IOException | RuntimeException e) {
            return Sample.NONE;
        }
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
