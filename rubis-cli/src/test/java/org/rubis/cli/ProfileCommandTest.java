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
}
