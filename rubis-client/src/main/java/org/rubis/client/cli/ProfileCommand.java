package org.rubis.client.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.rubis.client.config.Durations;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.Source;
import org.rubis.client.profile.LoadProfile;
import org.rubis.client.profile.ProfileShape;
import org.rubis.client.profile.ProfileText;
import org.rubis.client.profile.ProfileUnit;
import org.rubis.client.profile.Profiles;
import org.rubis.client.profile.TimeSeries;
import org.rubis.client.report.ExitStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code profile}: writes a load profile file for {@code run --profile} (docs/WORKLOAD.md, Load profiles), so that the
 * common shapes need no typing: steps, a linear ramp, a spike, a diurnal sine, and a time series (a request-rate trace)
 * rescaled to a peak and a length. Nothing is sent.
 */
@Command(
        name = "profile",
        mixinStandardHelpOptions = true,
        description = "Write a load profile for run --profile: steps, ramp, spike, diurnal, or series (a time series"
                + " rescaled).",
        subcommands = {
            ProfileCommand.Steps.class,
            ProfileCommand.Ramp.class,
            ProfileCommand.Spike.class,
            ProfileCommand.Diurnal.class,
            ProfileCommand.Series.class
        })
public final class ProfileCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitStatus.USAGE;
    }

    /** The options every shape takes: what the values count, and where the file goes. */
    static final class Output {
        @Option(
                names = "--unit",
                paramLabel = "UNIT",
                defaultValue = "users",
                description = "What the values count: users (closed arrivals) or sessions/s (hybrid arrivals). Default:"
                        + " users.")
        String unit;

        @Option(
                names = "--out",
                paramLabel = "FILE",
                description = "The profile file to write (default: standard output).")
        Path out;

        @Option(names = "--force", description = "Overwrite --out when it exists.")
        boolean force;

        ProfileUnit unit() {
            ProfileUnit u = ProfileUnit.parse(unit);
            if (u == null) {
                throw new ConfigException("--unit " + unit + ": expected users or sessions/s");
            }
            return u;
        }

        /** Writes the profile; a one-line report on stderr names the file, so that standard output stays the file's text. */
        int write(CommandSpec spec, ProfileText p, String what) {
            if (out == null) {
                PrintWriter w = spec.commandLine().getOut();
                w.print(p.text());
                w.flush();
                return 0;
            }
            if (Files.exists(out) && !force) {
                throw new ConfigException(
                        "--out " + out + ": exists; choose another file or add --force to overwrite it");
            }
            try {
                Files.writeString(out, p.text(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new ConfigException("--out " + out + ": cannot write: " + e.getMessage());
            }
            PrintWriter w = spec.commandLine().getOut();
            w.println("Wrote " + out + ": " + what + ", " + p.size() + " points (run --profile " + out + ")");
            w.flush();
            return 0;
        }
    }

    static long millis(String option, String text) {
        long ms = Durations.millis(option, text);
        if (ms <= 0) {
            throw new ConfigException(option + " " + text + ": expected a duration above 0");
        }
        return ms;
    }

    static double value(String option, double v, ProfileUnit unit) {
        if (!Double.isFinite(v) || v < 0) {
            throw new ConfigException(option + " " + v + ": expected 0 or more " + unit.words());
        }
        if (v > LoadProfile.MAX_VALUE) {
            throw new ConfigException(option + " " + v + ": beyond the largest value a profile may hold; expected at"
                    + " most " + (long) LoadProfile.MAX_VALUE + " " + unit.words());
        }
        if (unit == ProfileUnit.USERS && v != Math.rint(v)) {
            throw new ConfigException(option + " " + v + ": expected a whole number of users");
        }
        return v;
    }

    @Command(
            name = "steps",
            mixinStandardHelpOptions = true,
            description = "Levels held one after another, e.g. --levels 20,100,40 --every 30s.")
    static final class Steps implements Callable<Integer> {
        @Mixin
        Output output;

        @Option(
                names = "--levels",
                paramLabel = "V,V,...",
                required = true,
                split = ",",
                description = "The levels, in order.")
        List<Double> levels;

        @Option(
                names = "--every",
                paramLabel = "TIME",
                required = true,
                description = "How long each level holds, e.g. 30s.")
        String every;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            ProfileUnit unit = output.unit();
            List<Double> checked = new ArrayList<>();
            for (double v : levels) {
                checked.add(value("--levels", v, unit));
            }
            long ms = millis("--every", every);
            return output.write(spec, Profiles.steps(unit, checked, ms), levels.size() + " steps of " + every);
        }
    }

    @Command(
            name = "ramp",
            mixinStandardHelpOptions = true,
            description = "A linear ramp, then a hold: --from 0 --to 100 --over 5m --hold 10m.")
    static final class Ramp implements Callable<Integer> {
        @Mixin
        Output output;

        @Option(
                names = "--from",
                paramLabel = "V",
                defaultValue = "0",
                description = "The value at the start. Default: 0.")
        double from;

        @Option(names = "--to", paramLabel = "V", required = true, description = "The value at the end of the ramp.")
        double to;

        @Option(names = "--over", paramLabel = "TIME", required = true, description = "The ramp's length, e.g. 5m.")
        String over;

        @Option(
                names = "--hold",
                paramLabel = "TIME",
                defaultValue = "0",
                description = "How long --to holds after the ramp. Default: 0.")
        String hold;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            ProfileUnit unit = output.unit();
            long holdMs = Durations.millis("--hold", hold);
            return output.write(
                    spec,
                    Profiles.ramp(
                            unit, value("--from", from, unit), value("--to", to, unit), millis("--over", over), holdMs),
                    "a ramp over " + over);
        }
    }

    @Command(
            name = "spike",
            mixinStandardHelpOptions = true,
            description = "A base load with one spike: --base 50 --peak 500 --at 2m --for 30s --length 5m.")
    static final class Spike implements Callable<Integer> {
        @Mixin
        Output output;

        @Option(names = "--base", paramLabel = "V", required = true, description = "The load outside the spike.")
        double base;

        @Option(names = "--peak", paramLabel = "V", required = true, description = "The load during the spike.")
        double peak;

        @Option(names = "--at", paramLabel = "TIME", required = true, description = "When the spike starts.")
        String at;

        @Option(names = "--for", paramLabel = "TIME", required = true, description = "How long it lasts.")
        String lasts;

        @Option(
                names = "--length",
                paramLabel = "TIME",
                required = true,
                description = "The profile's length (the run phase).")
        String length;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            ProfileUnit unit = output.unit();
            long atMs = millis("--at", at);
            long forMs = millis("--for", lasts);
            long lengthMs = millis("--length", length);
            if (atMs + forMs > lengthMs) {
                throw new ConfigException("--at " + at + " --for " + lasts + ": the spike ends after --length " + length
                        + "; expected it within the profile");
            }
            return output.write(
                    spec,
                    Profiles.spike(
                            unit, value("--base", base, unit), value("--peak", peak, unit), atMs, forMs, lengthMs),
                    "a spike at " + at);
        }
    }

    @Command(
            name = "diurnal",
            mixinStandardHelpOptions = true,
            description =
                    "A day as a sine from --min (at 0) to --max (at half the period): --min 50 --max 500 --period 1h.")
    static final class Diurnal implements Callable<Integer> {
        @Mixin
        Output output;

        @Option(names = "--min", paramLabel = "V", required = true, description = "The lowest load (at time 0).")
        double min;

        @Option(
                names = "--max",
                paramLabel = "V",
                required = true,
                description = "The highest load (at half the period).")
        double max;

        @Option(
                names = "--period",
                paramLabel = "TIME",
                required = true,
                description = "One day's length in the run, e.g. 1h.")
        String period;

        @Option(names = "--length", paramLabel = "TIME", description = "The profile's length. Default: one period.")
        String length;

        @Option(
                names = "--step",
                paramLabel = "TIME",
                defaultValue = "1m",
                description = "The pieces the sine is cut into. Default: 1m.")
        String step;

        @Option(
                names = "--shape",
                paramLabel = "SHAPE",
                defaultValue = "step",
                description =
                        "step: each piece holds its mean (each judged steady); ramp: linear through the sine. Default:"
                                + " step.")
        ProfileShape shape;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            ProfileUnit unit = output.unit();
            value("--min", min, unit == ProfileUnit.USERS ? ProfileUnit.RATE : unit);
            value("--max", max, unit == ProfileUnit.USERS ? ProfileUnit.RATE : unit);
            if (max < min) {
                throw new ConfigException("--min " + min + " --max " + max + ": expected --max at least --min");
            }
            long periodMs = millis("--period", period);
            long lengthMs = length == null ? periodMs : millis("--length", length);
            long stepMs = millis("--step", step);
            return output.write(
                    spec,
                    Profiles.diurnal(unit, shape, min, max, periodMs, lengthMs, stepMs),
                    String.format(Locale.ROOT, "a diurnal sine, period %s", period));
        }
    }

    @Command(
            name = "series",
            mixinStandardHelpOptions = true,
            description =
                    "A time series (lines time,value, e.g. a request-rate trace) rescaled: its span to --length, its"
                            + " largest piece to --peak.")
    static final class Series implements Callable<Integer> {
        @Mixin
        Output output;

        @Option(
                names = "--input",
                paramLabel = "FILE",
                required = true,
                description = "The series: lines time,value (a header line is skipped).")
        Path input;

        @Option(names = "--peak", paramLabel = "V", required = true, description = "The profile's largest value.")
        double peak;

        @Option(
                names = "--length",
                paramLabel = "TIME",
                required = true,
                description = "The profile's length, e.g. 1h for a day-long trace.")
        String length;

        @Option(
                names = "--step",
                paramLabel = "TIME",
                defaultValue = "1m",
                description = "The pieces it is averaged over. Default: 1m.")
        String step;

        @Option(
                names = "--shape",
                paramLabel = "SHAPE",
                defaultValue = "step",
                description = "step: each piece holds its mean; ramp: linear from piece to piece. Default: step.")
        ProfileShape shape;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            ProfileUnit unit = output.unit();
            value("--peak", peak, unit);
            if (peak == 0) {
                throw new ConfigException("--peak 0: expected a peak above 0");
            }
            TimeSeries s = TimeSeries.read(Source.file(input));
            if (s.max() == 0) {
                throw new ConfigException(input + ": every value is 0; expected a series with some load");
            }
            return output.write(
                    spec,
                    Profiles.series(
                            unit,
                            shape,
                            s,
                            input.getFileName().toString(),
                            peak,
                            millis("--length", length),
                            millis("--step", step)),
                    "the series " + input + " over " + length);
        }
    }
}
