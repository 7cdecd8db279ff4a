package org.rubis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.TestFiles;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.profile.LoadProfile;
import org.rubis.client.report.ExitStatus;

/**
 * {@code rubis-client profile}: the files it writes load as the profiles they say (a run reads them back), a day-long
 * time series drives an hour at the given peak, and bad input is one line with file:line and the fix, exit 64.
 */
class ProfileCommandTest {

    @TempDir
    Path tmp;

    private record Result(int status, String out, String err) {}

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = RubisClientMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(status, out.toString(), err.toString());
    }

    private static LoadProfile load(Path file, String arrivals) {
        return ConfigLoader.load(
                        (Path) null, Map.of("workload_profile_file", file.toString(), "workload_arrivals", arrivals))
                .profile();
    }

    @Test
    void stepsWriteAProfileARunReadsBack() {
        Path f = tmp.resolve("steps.txt");
        Result r = run("profile", "steps", "--levels", "20,100,40", "--every", "30s", "--out", f.toString());
        assertEquals(0, r.status(), r.err());
        LoadProfile p = load(f, "closed");
        assertEquals(3, p.intervals());
        assertEquals(
                List.of(20.0, 100.0, 40.0),
                p.points().stream().map(LoadProfile.Point::value).toList());
        assertEquals(90_000_000_000L, p.lengthNs());
        assertEquals(
                ExitStatus.USAGE,
                run("profile", "steps", "--levels", "20", "--every", "30s", "--out", f.toString())
                        .status(),
                "an existing file is not overwritten without --force");
    }

    @Test
    void aDayLongSeriesDrivesAnHourAtThePeak() throws Exception {
        // A day of per-minute request rates: a sine from 100 at midnight to 1,100 at noon.
        StringBuilder b = new StringBuilder("minute,rps\n");
        for (int m = 0; m < 1440; m++) {
            b.append(m)
                    .append(',')
                    .append(100 + 500 * (1 - Math.cos(2 * Math.PI * m / 1440)))
                    .append('\n');
        }
        Path trace = TestFiles.write(tmp, "day.csv", b.toString());
        Path f = tmp.resolve("hour.txt");
        Result r = run(
                "profile",
                "series",
                "--input",
                trace.toString(),
                "--unit",
                "sessions/s",
                "--peak",
                "50",
                "--length",
                "1h",
                "--step",
                "5m",
                "--out",
                f.toString());
        assertEquals(0, r.status(), r.err());
        LoadProfile p = load(f, "hybrid");
        assertEquals(12, p.intervals());
        assertEquals(3_600_000_000_000L, p.lengthNs());
        assertEquals(50, p.peak(), 1e-9, "the largest piece is the peak");
        // each 5 min of the hour is 2 h of the day: its mean, scaled as the peak piece is
        double peakMean = 0;
        for (int i = 0; i < 12; i++) {
            peakMean = Math.max(peakMean, meanOfDay(i * 120, (i + 1) * 120));
        }
        for (int i = 0; i < 12; i++) {
            double expected = 50 * meanOfDay(i * 120, (i + 1) * 120) / peakMean;
            assertEquals(expected, p.startValue(i), 0.0006, "piece " + i);
        }
    }

    private static double meanOfDay(int fromMinute, int toMinute) {
        double sum = 0;
        for (int m = fromMinute; m < toMinute; m++) {
            sum += 100 + 500 * (1 - Math.cos(2 * Math.PI * m / 1440));
        }
        return sum / (toMinute - fromMinute);
    }

    @Test
    void aBadSeriesIsOneLineWithItsFileAndLineAndExit64() {
        String[][] cases = {
            {"t,v\n0,1\n1,2\n5,3\n6,4\n", ":4: a gap"},
            {"0,1\n1,x\n2,3\n", ":2: "},
            {"0,1\n2,2\n1,3\n", ":3: time 1 is not after the previous line's (2); sort the series by time"},
        };
        for (String[] c : cases) {
            Path trace = TestFiles.write(tmp, "bad.csv", c[0]);
            Path out = tmp.resolve("never.txt");
            Result r = run(
                    "profile",
                    "series",
                    "--input",
                    trace.toString(),
                    "--peak",
                    "10",
                    "--length",
                    "10m",
                    "--out",
                    out.toString());
            assertEquals(ExitStatus.USAGE, r.status(), c[0]);
            String line = r.err().strip();
            assertEquals(-1, line.indexOf('\n'), "one line: " + r.err());
            assertTrue(line.contains(trace + c[1]), line);
            assertFalse(line.contains("Exception"), line);
            assertFalse(Files.exists(out), "nothing written");
        }
    }

    @Test
    void aProfileWithTheUsersItReplacesIsRefusedBeforeAnythingIsSent() {
        Path f = TestFiles.write(tmp, "p.txt", "0 5\n10s end\n");
        Result r = run(
                "run",
                "--profile",
                f.toString(),
                "--users",
                "10",
                "--out",
                tmp.resolve("run").toString());
        assertEquals(ExitStatus.USAGE, r.status(), r.err());
        assertTrue(
                r.err().contains("--profile and --users: the profile sets the users over the run phase; drop --users"),
                r.err());
        assertFalse(Files.exists(tmp.resolve("run").resolve("requests.csv")));
    }

    /**
     * Every shape the command writes is a profile a run takes: a ramp without a hold (its last point at the end), a
     * spike ending at --length, diurnal and series with --shape ramp were refused ("time 4s again").
     */
    @Test
    void everyShapeWrittenIsAProfileARunTakes() throws Exception {
        Path trace = TestFiles.write(tmp, "trace.csv", "t,v\n0,1\n1,3\n2,2\n3,5\n");
        String[][] cases = {
            {"ramp", "--from", "0", "--to", "4", "--over", "4s"},
            {"spike", "--base", "2", "--peak", "6", "--at", "2s", "--for", "2s", "--length", "4s"},
            {"diurnal", "--min", "1", "--max", "5", "--period", "4s", "--step", "1s", "--shape", "ramp"},
            {"series", "--input", trace.toString(), "--peak", "5", "--length", "4s", "--step", "1s", "--shape", "ramp"}
        };
        for (String[] c : cases) {
            Path f = tmp.resolve(c[0] + ".txt");
            List<String> a = new java.util.ArrayList<>(List.of("profile"));
            a.addAll(List.of(c));
            a.addAll(List.of("--out", f.toString()));
            Result r = run(a.toArray(String[]::new));
            assertEquals(0, r.status(), c[0] + ": " + r.err());
            LoadProfile p = load(f, "closed");
            assertEquals(4_000_000_000L, p.lengthNs(), c[0] + ":\n" + Files.readString(f));
        }
        // The ramp without a hold ramps to its --to at the end, and holds it after.
        LoadProfile ramp = load(tmp.resolve("ramp.txt"), "closed");
        assertEquals(1, ramp.intervals());
        assertEquals(4.0, ramp.endValue(0));
        assertEquals(2.0, ramp.valueAt(2_000_000_000L), 1e-9);
        assertEquals(4.0, ramp.valueAt(5_000_000_000L), 1e-9);
        assertEquals(4.0, ramp.peak());
        // The spike's return to the base at the end holds for no time: two intervals, the spike the last.
        LoadProfile spike = load(tmp.resolve("spike.txt"), "closed");
        assertEquals(2, spike.intervals());
        assertEquals(6.0, spike.valueAt(3_000_000_000L));
    }

    /** A value beyond what a profile may hold is one line, never an overflowed number in the file. */
    @Test
    void valuesBeyondTheBoundAreRefusedNotOverflowed() throws Exception {
        Path f = tmp.resolve("big.txt");
        Result r = run(
                "profile",
                "steps",
                "--levels",
                "1e300",
                "--every",
                "1s",
                "--unit",
                "sessions/s",
                "--out",
                f.toString());
        assertEquals(ExitStatus.USAGE, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("--levels 1.0E300: beyond the largest value a profile may hold"), r.err());
        assertFalse(Files.exists(f));
        // A series of values near the largest double: rescaled to its peak, not summed into infinity and written 0.
        Path trace = TestFiles.write(tmp, "huge.csv", "0,1e308\n1,1.5e308\n2,1e308\n");
        Path g = tmp.resolve("huge.txt");
        r = run(
                "profile",
                "series",
                "--input",
                trace.toString(),
                "--peak",
                "30",
                "--length",
                "3s",
                "--step",
                "1s",
                "--out",
                g.toString());
        assertEquals(0, r.status(), r.err());
        LoadProfile p = load(g, "closed");
        assertEquals(30.0, p.peak(), Files.readString(g));
        assertEquals(20.0, p.points().get(0).value(), Files.readString(g));
    }

    /** A profile of more points than a run may hold is refused when written, as a run refuses it. */
    @Test
    void tooManyPointsAreOneLine() {
        Result r = run(
                "profile",
                "diurnal",
                "--min",
                "0",
                "--max",
                "500",
                "--unit",
                "sessions/s",
                "--period",
                "1h",
                "--step",
                "1s",
                "--out",
                tmp.resolve("d.txt").toString());
        assertEquals(ExitStatus.USAGE, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("more than " + LoadProfile.MAX_POINTS + " points"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }
}
