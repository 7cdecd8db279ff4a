package org.rubis.client.profile;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.DurationText;
import org.rubis.client.input.Source;
import org.rubis.client.workload.WorkloadModel;

/**
 * Reads a load profile file (docs/WORKLOAD.md, Load profiles): {@code #} comments, at most one {@code shape step|ramp}
 * and one {@code unit users|sessions/s} line before the first point, then points {@code TIME VALUE [MIX]
 * [THINK-SCALE]} in increasing time, and optionally a last line {@code TIME end}. Times as on the command line
 * ({@code 90s}, {@code 5m}, {@code 500ms}, {@code 1h}; a bare number is seconds), from the start of the run phase.
 * Fields are separated by blanks, commas or semicolons, so a rate schedule of earlier versions ({@code start_s
 * rate_per_s} lines) reads as a profile of steps. Every mistake is one line naming the file, the line and the fix.
 */
public final class ProfileFile {

    /** Finds the transition table a point names: a packaged mix by name, or a file (relative to the profile's own). */
    @FunctionalInterface
    public interface MixResolver {
        /** The workload with that mix, or a {@link ConfigException} that starts with {@code where}. */
        WorkloadModel resolve(String mix, Source profile, String where);
    }

    /**
     * What the run gives a profile: its arrivals' unit, a shape chosen outside the file (null: none), and the mix and
     * think scale in force before a point names its own.
     */
    public record Defaults(
            ProfileUnit unit,
            ProfileShape shape,
            String shapeOption,
            WorkloadModel mix,
            String mixName,
            double thinkScale) {}

    /** A shape line, a unit line, points, and the end line when there is one. */
    private final Source source;

    private final Defaults defaults;
    private final MixResolver mixes;
    private ProfileShape shape;
    private int shapeLine;
    private int unitLine;
    private final List<LoadProfile.Point> points = new ArrayList<>();
    private long endNs = -1;
    /** The value of a point given at the end line's time (NaN: none). */
    private double endTarget = Double.NaN;

    private int endLine;
    private WorkloadModel mix;
    private String mixName;
    private double thinkScale;

    private ProfileFile(Source source, Defaults defaults, MixResolver mixes) {
        this.source = source;
        this.defaults = defaults;
        this.mixes = mixes;
        this.mix = defaults.mix();
        this.mixName = defaults.mixName();
        this.thinkScale = defaults.thinkScale();
    }

    /**
     * The profile in {@code source}; its length is its end line's time, or -1 when it has none (the caller then
     * gives it the run's duration, {@link LoadProfile#withLength}).
     */
    public static LoadProfile read(Source source, Defaults defaults, MixResolver mixes) {
        ProfileFile f = new ProfileFile(source, defaults, mixes);
        List<String> lines = source.readLines();
        for (int n = 1; n <= lines.size(); n++) {
            f.line(lines.get(n - 1), n);
        }
        return f.profile();
    }

    private LoadProfile profile() {
        if (points.isEmpty()) {
            throw new ConfigException(
                    source.displayName() + ": no points; expected lines 'TIME VALUE [MIX] [THINK-SCALE]', e.g. '0 20' "
                            + "then '30s 100' (docs/WORKLOAD.md, Load profiles)");
        }
        ProfileShape s = shape;
        if (s == null) {
            s = defaults.shape() != null ? defaults.shape() : ProfileShape.STEP;
        }
        List<LoadProfile.Point> all = new ArrayList<>();
        LoadProfile.Point first = points.get(0);
        if (first.atNs() > 0) {
            // Before the first point nothing runs: an idle interval, so that intervals tile the run phase.
            all.add(new LoadProfile.Point(0, 0, defaults.mix(), defaults.mixName(), defaults.thinkScale(), 0));
        }
        all.addAll(points);
        return new LoadProfile(source.displayName(), s, defaults.unit(), all, endNs, endLine, endTarget);
    }

    private void line(String raw, int n) {
        int hash = raw.indexOf('#');
        String text = (hash >= 0 ? raw.substring(0, hash) : raw).strip();
        if (text.isEmpty()) {
            return;
        }
        String[] f = text.split("[\\s,;]+");
        String where = source.displayName() + ":" + n;
        if (endLine > 0) {
            throw new ConfigException(where + ": \"" + abbreviate(text) + "\" after the end line (line " + endLine
                    + "); the end line must be the last");
        }
        String key = f[0].toLowerCase(Locale.ROOT);
        if (key.equals("shape")) {
            shapeLine(f, where, n);
        } else if (key.equals("unit")) {
            unitLine(f, where, n);
        } else {
            point(f, text, where, n);
        }
    }

    private void shapeLine(String[] f, String where, int n) {
        if (f.length != 2 || ProfileShape.parse(f[1]) == null) {
            throw new ConfigException(where + ": expected 'shape step' or 'shape ramp'");
        }
        if (shapeLine > 0 || !points.isEmpty()) {
            throw new ConfigException(
                    where + ": a second shape line, or one after the first point; give one 'shape' line at the top");
        }
        shape = ProfileShape.parse(f[1]);
        shapeLine = n;
        if (defaults.shape() != null && defaults.shape() != shape) {
            throw new ConfigException(where + ": shape " + shape.label() + ", but " + defaults.shapeOption() + " says "
                    + defaults.shape().label() + "; drop one of them");
        }
    }

    private void unitLine(String[] f, String where, int n) {
        ProfileUnit u = f.length == 2 ? ProfileUnit.parse(f[1]) : null;
        if (u == null) {
            throw new ConfigException(where + ": expected 'unit users' or 'unit sessions/s'");
        }
        if (unitLine > 0 || !points.isEmpty()) {
            throw new ConfigException(
                    where + ": a second unit line, or one after the first point; give one 'unit' line at the top");
        }
        unitLine = n;
        if (u != defaults.unit()) {
            throw new ConfigException(where + ": a profile of " + u.words() + ", but the run has "
                    + (defaults.unit() == ProfileUnit.USERS
                            ? "closed arrivals, whose profile counts users; give --arrivals hybrid for a session rate"
                            : "hybrid arrivals, whose profile is a session rate; give --arrivals closed for users"));
        }
    }

    private void point(String[] f, String text, String where, int n) {
        long at = time(f[0], where);
        if (f.length < 2) {
            throw new ConfigException(where + ": \"" + abbreviate(text)
                    + "\" has no value; expected 'TIME VALUE [MIX] [THINK-SCALE]', " + "e.g. '30s 100', or 'TIME end'");
        }
        long last = points.isEmpty() ? -1 : points.get(points.size() - 1).atNs();
        if (at == last && points.size() > 1 && f.length == 2 && f[1].equalsIgnoreCase("end")) {
            // A point at the end's time holds for no time: on a ramp it is the value the last stretch ramps to (what
            // profile ramp writes without a hold), on steps it changes nothing.
            LoadProfile.Point target = points.remove(points.size() - 1);
            endTarget = target.value();
            endNs = at;
            endLine = n;
            return;
        }
        if (at == last) {
            throw new ConfigException(where + ": time " + f[0] + " again (line "
                    + points.get(points.size() - 1).line() + " has it); each point needs its own time");
        }
        if (at < last) {
            throw new ConfigException(where + ": time " + f[0] + " is before the previous point's (line "
                    + points.get(points.size() - 1).line() + "); points must be in increasing time order");
        }
        if (f[1].equalsIgnoreCase("end")) {
            if (f.length > 2) {
                throw new ConfigException(where + ": expected 'TIME end' alone on the line");
            }
            if (points.isEmpty()) {
                throw new ConfigException(where + ": the end before any point; expected points 'TIME VALUE' first");
            }
            endNs = at;
            endLine = n;
            return;
        }
        double value = value(f[1], where);
        if (f.length > 4) {
            throw new ConfigException(where + ": \"" + abbreviate(text) + "\" has " + f.length
                    + " fields; expected 'TIME VALUE [MIX] [THINK-SCALE]'");
        }
        for (int i = 2; i < f.length; i++) {
            if (i == f.length - 1 && isNumber(f[i])) {
                thinkScale = thinkScale(f[i], where);
            } else if (i == 2 && !f[i].equals("-")) {
                mix = mixes.resolve(f[i], source, where);
                mixName = f[i];
            } else if (!f[i].equals("-")) {
                throw new ConfigException(
                        where + ": \"" + abbreviate(f[i]) + "\" is not a think scale; expected 'TIME VALUE [MIX] "
                                + "[THINK-SCALE]', e.g. '30s 100 browsing 0.5'");
            }
        }
        if (points.size() == LoadProfile.MAX_POINTS) {
            throw new ConfigException(where + ": more than " + LoadProfile.MAX_POINTS
                    + " points; a profile may have at most " + LoadProfile.MAX_POINTS
                    + " (each is an interval the run keeps statistics for): use longer steps");
        }
        points.add(new LoadProfile.Point(at, value, mix, mixName, thinkScale, n));
    }

    private long time(String text, String where) {
        double ms = DurationText.millis(text);
        if (Double.isNaN(ms)) {
            throw new ConfigException(where + ": \"" + abbreviate(text)
                    + "\" is not a time; expected e.g. 0, 90s, 5m, 500ms or 1h " + "(a bare number is seconds)");
        }
        if (ms > MAX_MS) {
            throw new ConfigException(
                    where + ": " + abbreviate(text) + " is beyond 30 days; expected times within the run");
        }
        return Math.round(ms * 1e6);
    }

    private double value(String text, String where) {
        if (!DECIMAL.matcher(text).matches()) {
            throw new ConfigException(where + ": \"" + abbreviate(text) + "\" is not a number of "
                    + defaults.unit().words() + "; expected 'TIME VALUE [MIX] [THINK-SCALE]', e.g. '30s 100'"
                    + " (digits, a decimal point and an exponent only)");
        }
        double v = Double.parseDouble(text);
        if (v < 0) {
            throw new ConfigException(where + ": " + abbreviate(text) + " "
                    + defaults.unit().words() + " is negative; expected 0 or more");
        }
        if (!Double.isFinite(v) || v > LoadProfile.MAX_VALUE) {
            throw new ConfigException(
                    where + ": " + abbreviate(text) + " " + defaults.unit().words()
                            + " is beyond the largest a profile may hold; expected at most "
                            + Profiles.number(LoadProfile.MAX_VALUE));
        }
        if (defaults.unit() == ProfileUnit.USERS && v != Math.rint(v)) {
            throw new ConfigException(
                    where + ": " + abbreviate(text) + " users is not a whole number; expected a whole number of users"
                            + " (a ramp between two points adds them one at a time)");
        }
        return v;
    }

    private static double thinkScale(String text, String where) {
        double v = Double.parseDouble(text); // isNumber: a plain decimal
        if (!Double.isFinite(v) || v < 0) {
            throw new ConfigException(
                    where + ": think scale " + abbreviate(text) + " is negative or not finite; expected 0 or more");
        }
        return v;
    }

    /**
     * A number as a profile writes it: digits, an optional decimal point and exponent. Java's own syntax takes more
     * ({@code 2d}, {@code 0x1p3}, {@code NaN}): a typo must not run a load nobody wrote.
     */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    private static boolean isNumber(String s) {
        return DECIMAL.matcher(s).matches();
    }

    /** The longest time a profile may name: 30 days, every duration's bound. */
    static final double MAX_MS = 30.0 * 24 * 3600 * 1000;

    static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
