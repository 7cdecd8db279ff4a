package org.rubis.client.profile;

import java.util.List;
import org.rubis.client.workload.WorkloadModel;

/**
 * Load that changes over the run phase: points {@code at value [mix] [think-scale]}, a step or a linear ramp between
 * them, and a length. Its time 0 is the start of the run phase, so the up ramp brings the load of time 0 in (as the
 * stationary start brings a fixed population in) and the down ramp holds the last value. Each point starts an
 * interval, the unit the summary reports on; the mix and think scale a point names hold from it to the next point
 * that names one (they switch, they are never interpolated). Immutable; read by {@link ProfileFile}.
 *
 * <p>For a closed population the value is a number of users: user {@code u} (0-based) is wanted while the value is
 * above {@code u + 1/2}, so a step of whole numbers wants exactly that many users and a ramp adds or removes them one
 * at a time, each when the line crosses its half. Users join and leave highest number last in, first out, a
 * function of the profile alone: the users a shard owns ({@code u mod N}) are its share at every point.
 */
public final class LoadProfile {

    /**
     * One point, its mix and think scale resolved (the ones in force when the point names none).
     *
     * @param atNs       its time from the start of the run phase
     * @param value      users, or sessions per second
     * @param mix        the transition table new sessions take from this point on
     * @param mixName    that mix as the file names it ({@code bidding}, {@code browsing}, a path), or the run's table
     * @param thinkScale the think scale from this point on
     * @param line       its line in the file (0: the implicit idle start before a first point later than 0)
     */
    public record Point(long atNs, double value, WorkloadModel mix, String mixName, double thinkScale, int line) {}

    /**
     * The most points a profile may have: each starts an interval whose statistics the run keeps to its end (a
     * profile of 100,000 points took 6.1 GB and wrote a 158 MB summary.json for 22 requests). A day in steps of one
     * minute is 1,440.
     */
    public static final int MAX_POINTS = 2_000;

    /**
     * The largest value a point may have, users or sessions per second: far beyond what one client host runs, and
     * small enough that every figure derived from it (thousandths, counts) stays exact.
     */
    public static final double MAX_VALUE = 1_000_000;

    private final String source;
    private final ProfileShape shape;
    private final ProfileUnit unit;
    private final List<Point> points;
    private final long lengthNs;
    private final int endLine;
    /**
     * A ramp's value at the profile's end, when the file gives a point at the end line's time (what {@code profile
     * ramp} writes for a ramp without a hold): the last interval ramps to it. NaN when none: the last value holds.
     */
    private final double endTarget;

    /**
     * @param points  sorted by time, strictly, the first at 0
     * @param lengthNs the run phase's length: the profile's end line, or the run's duration when it has none
     * @param endLine the end line's number, or 0 when the length is the run's duration
     */
    public LoadProfile(
            String source, ProfileShape shape, ProfileUnit unit, List<Point> points, long lengthNs, int endLine) {
        this(source, shape, unit, points, lengthNs, endLine, Double.NaN);
    }

    /** @param endTarget a ramp's value at {@code lengthNs} (NaN: none, the last point's value holds) */
    public LoadProfile(
            String source,
            ProfileShape shape,
            ProfileUnit unit,
            List<Point> points,
            long lengthNs,
            int endLine,
            double endTarget) {
        if (points.isEmpty() || points.get(0).atNs() != 0) {
            throw new IllegalArgumentException("a profile starts with a point at 0");
        }
        this.source = source;
        this.shape = shape;
        this.unit = unit;
        this.points = List.copyOf(points);
        this.lengthNs = lengthNs;
        this.endLine = endLine;
        this.endTarget = shape == ProfileShape.RAMP ? endTarget : Double.NaN;
    }

    /** This profile with the given length (a profile without an end line takes the run's duration). */
    public LoadProfile withLength(long ns) {
        return new LoadProfile(source, shape, unit, points, ns, endLine, endTarget);
    }

    /** Whether the last interval ramps to a value at the end ({@link #endTarget}). */
    private boolean rampsToEnd() {
        return !Double.isNaN(endTarget);
    }

    /** The file it was read from. */
    public String source() {
        return source;
    }

    public ProfileShape shape() {
        return shape;
    }

    public ProfileUnit unit() {
        return unit;
    }

    public List<Point> points() {
        return points;
    }

    /** The run phase's length, ns. */
    public long lengthNs() {
        return lengthNs;
    }

    /** The line of the file's {@code end}, or 0 when the run's duration gave the length. */
    public int endLine() {
        return endLine;
    }

    /** Intervals: one per point. */
    public int intervals() {
        return points.size();
    }

    /** Interval {@code i}'s start, ns from the start of the run phase. */
    public long startNs(int i) {
        return points.get(i).atNs();
    }

    /** Interval {@code i}'s end: the next point, or the end of the profile. */
    public long endNs(int i) {
        return i + 1 < points.size() ? points.get(i + 1).atNs() : lengthNs;
    }

    /** The value at the start of interval {@code i}. */
    public double startValue(int i) {
        return points.get(i).value();
    }

    /** The value at the end of interval {@code i}: the next point's on a ramp, the same on a step or the last. */
    public double endValue(int i) {
        if (shape == ProfileShape.RAMP && i + 1 == points.size() && rampsToEnd()) {
            return endTarget;
        }
        return shape == ProfileShape.RAMP && i + 1 < points.size()
                ? points.get(i + 1).value()
                : points.get(i).value();
    }

    /** Whether interval {@code i} is meant to be flat (a step, or a ramp between equal values): the ones judged steady. */
    public boolean flat(int i) {
        return startValue(i) == endValue(i);
    }

    /** The value's mean over interval {@code i} (exact for both shapes). */
    public double meanValue(int i) {
        return (startValue(i) + endValue(i)) / 2;
    }

    /** The largest value: what the resource plan must hold. */
    public double peak() {
        double max = 0;
        for (Point p : points) {
            max = Math.max(max, p.value());
        }
        return rampsToEnd() ? Math.max(max, endTarget) : max;
    }

    /** The interval an instant is in (ns from the start of the run phase; before 0: the first, after the end: the last). */
    public int intervalAt(long t) {
        int lo = 0;
        int hi = points.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (points.get(mid).atNs() <= t) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** The value at {@code t}, ns from the start of the run phase; before 0 the value at 0, after the end the last. */
    public double valueAt(long t) {
        if (t <= 0) {
            return points.get(0).value();
        }
        int i = intervalAt(t);
        if (i + 1 == points.size() && rampsToEnd()) {
            if (t >= lengthNs) {
                return endTarget;
            }
        } else if (shape == ProfileShape.STEP || i + 1 >= points.size()) {
            return points.get(i).value();
        }
        double a = startValue(i);
        double b = endValue(i);
        long s = startNs(i);
        return a + (b - a) * (t - s) / (double) (endNs(i) - s);
    }

    /**
     * The first instant at or after {@code from} (ns from the start of the run phase) at which closed-mode user
     * {@code u} is wanted ({@code wanted}) or not, or {@link Long#MAX_VALUE} when never: the user is wanted while the
     * value is above {@code u + 1/2}. After the end the last value holds.
     */
    public long nextChange(int u, long from, boolean wanted) {
        double h = u + 0.5;
        for (int i = intervalAt(Math.max(0, from)); i < points.size(); i++) {
            long s = Math.max(startNs(i), from);
            boolean last = i + 1 == points.size();
            long e = !last ? startNs(i + 1) : rampsToEnd() ? lengthNs : Long.MAX_VALUE;
            double a = startValue(i);
            double b = !last || rampsToEnd() ? endValue(i) : a;
            long at = firstInSegment(startNs(i), e, a, b, h, s, wanted);
            if (at != Long.MAX_VALUE) {
                return at;
            }
        }
        if (rampsToEnd()) {
            // After the end the target holds.
            long s = Math.max(lengthNs, from);
            return firstInSegment(lengthNs, Long.MAX_VALUE, endTarget, endTarget, h, s, wanted);
        }
        return Long.MAX_VALUE;
    }

    /**
     * Within the segment [{@code s0}, {@code e}) whose value goes linearly from {@code a} to {@code b}: the first instant
     * at or after {@code from} where (value > {@code h}) == {@code wanted}, else {@link Long#MAX_VALUE}.
     */
    private static long firstInSegment(long s0, long e, double a, double b, double h, long from, boolean wanted) {
        if (from >= e) {
            return Long.MAX_VALUE;
        }
        if (a == b) {
            return (a > h) == wanted ? from : Long.MAX_VALUE;
        }
        // The crossing: value(t) = h at t = s0 + (h - a) / (b - a) * (e - s0); wanted on one side of it.
        double x = s0 + (h - a) / (b - a) * (double) (e - s0);
        if (x <= s0 || x >= e) {
            // No crossing within the segment: one state all along, b's side when the crossing is before it, else a's.
            boolean state = x <= s0 ? b > h : a > h;
            return state == wanted ? from : Long.MAX_VALUE;
        }
        long cross = (long) Math.ceil(x);
        boolean wantedBefore = a > h; // on [s0, cross)
        if (wantedBefore == wanted) {
            return from < cross ? from : Long.MAX_VALUE;
        }
        return cross < e ? Math.max(cross, from) : Long.MAX_VALUE;
    }
}
