package org.rubis.client.profile;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rubis.client.input.ConfigException;

/**
 * A profile file as the {@code profile} command writes it: comment lines saying how it was made, the shape and unit
 * lines, one point per line, the end line. Values of users are whole numbers (rounded), rates keep three decimals;
 * times are written in seconds with up to three decimals.
 */
public final class ProfileText {

    private final ProfileShape shape;
    private final ProfileUnit unit;
    private final List<String> comments = new ArrayList<>();
    private final List<long[]> points = new ArrayList<>(); // {at ms, value x 1000}
    private long endMs = -1;

    public ProfileText(ProfileShape shape, ProfileUnit unit) {
        this.shape = shape;
        this.unit = unit;
    }

    /** A comment line (without the {@code #}). */
    public ProfileText comment(String text) {
        comments.add(text);
        return this;
    }

    /**
     * A point at {@code atMs}; a value equal to the previous point's is left out on steps (it would only split an
     * interval), and kept on ramps (where it ends a ramp and starts a flat stretch).
     */
    public ProfileText point(long atMs, double value) {
        if (!(value >= 0 && value <= LoadProfile.MAX_VALUE)) {
            throw new ConfigException("a point of " + value + " " + unit.words()
                    + " is beyond the largest value a profile may hold (" + (long) LoadProfile.MAX_VALUE
                    + "); expected smaller values");
        }
        long v = unit == ProfileUnit.USERS ? Math.round(value) * 1000 : Math.round(value * 1000);
        if (!points.isEmpty()) {
            long[] last = points.get(points.size() - 1);
            if (last[0] == atMs) {
                last[1] = v;
                return this;
            }
            if (shape == ProfileShape.STEP && last[1] == v) {
                return this;
            }
        }
        if (points.size() == LoadProfile.MAX_POINTS) {
            throw new ConfigException("more than " + LoadProfile.MAX_POINTS + " points (run --profile takes at most "
                    + LoadProfile.MAX_POINTS + "); expected a longer --step or --every, or a shorter --length");
        }
        points.add(new long[] {atMs, v});
        return this;
    }

    /** The end of the profile (the run phase's length). */
    public ProfileText end(long atMs) {
        this.endMs = atMs;
        return this;
    }

    /** The points written, for tests and the command's one-line report. */
    public int size() {
        return points.size();
    }

    /** The file's text. */
    public String text() {
        StringBuilder b = new StringBuilder();
        for (String c : comments) {
            b.append("# ").append(c).append('\n');
        }
        b.append("shape ").append(shape.label()).append('\n');
        b.append("unit ").append(unit.label()).append('\n');
        for (long[] p : points) {
            b.append(String.format(Locale.ROOT, "%-10s %s%n", seconds(p[0]), number(p[1])));
        }
        if (endMs >= 0) {
            b.append(String.format(Locale.ROOT, "%-10s end%n", seconds(endMs)));
        }
        return b.toString();
    }

    private static String seconds(long ms) {
        return BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString() + "s";
    }

    private static String number(long milli) {
        return BigDecimal.valueOf(milli, 3).stripTrailingZeros().toPlainString();
    }
}
