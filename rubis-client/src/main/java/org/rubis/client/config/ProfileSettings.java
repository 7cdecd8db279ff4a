package org.rubis.client.config;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.Source;
import org.rubis.client.profile.LoadProfile;
import org.rubis.client.profile.ProfileFile;
import org.rubis.client.profile.ProfileShape;
import org.rubis.client.profile.ProfileUnit;
import org.rubis.client.workload.TransitionTable;
import org.rubis.client.workload.WorkloadModel;

/**
 * The load profile of a run, read at load with the rest of the configuration ({@code workload_profile_file}, or for
 * hybrid arrivals an earlier version's {@code workload_rate_schedule_file}): its mixes resolved, its values bounded as
 * every count and rate is ({@link Limits}), and its length reconciled with the run phase's. The profile is the run
 * phase: with an end line it sets the phase's length (a run time given on the command line must then agree); without
 * one its last point holds to the end of the run phase, and a point at or after that end is refused.
 *
 * @param profile the profile, or null when the run has none
 * @param runMs   the run phase's length
 * @param users   closed arrivals: the profile's peak (what the run must be able to hold), else the configured users
 * @param leave   how users leave
 */
record ProfileSettings(LoadProfile profile, long runMs, int users, LeaveRule leave) {

    /** The packaged mixes by name. */
    static final Map<String, String> PACKAGED_MIXES =
            Map.of("bidding", "default_transitions.txt", "browsing", "browse_only_transitions.txt");

    static ProfileSettings read(
            Settings s,
            Arrivals arrivals,
            WorkloadModel model,
            String tableName,
            double thinkScale,
            long runMs,
            int users,
            long maxThinkMs,
            double upFactor,
            double downFactor) {
        LeaveRule leave = leave(s);
        String key = profileKey(s, arrivals);
        if (key == null) {
            return new ProfileSettings(null, runMs, users, leave);
        }
        Source file = s.path(key, null);
        String where = s.where(s.entry(key).orElseThrow());
        ProfileUnit unit = arrivals == Arrivals.CLOSED ? ProfileUnit.USERS : ProfileUnit.RATE;
        ProfileShape shape = null;
        Optional<PropertiesFile.Entry> shapeEntry =
                s.entry(Keys.PROFILE_SHAPE.key()).filter(e -> !e.value().isEmpty());
        if (shapeEntry.isPresent()) {
            shape = s.get(Keys.PROFILE_SHAPE);
        }
        String shapeOption = shapeEntry.map(s::where).orElse("workload_profile_shape");
        Map<String, WorkloadModel> mixes = new HashMap<>();
        LoadProfile p = ProfileFile.read(
                file,
                new ProfileFile.Defaults(unit, shape, shapeOption, model, tableName, thinkScale),
                (mix, profileFile, at) -> mixes.computeIfAbsent(mix, m -> mix(s, model, m, profileFile, at)));
        for (LoadProfile.Point pt : p.points()) {
            bound(file, pt, unit, maxThinkMs, upFactor, downFactor);
        }
        if (p.peak() == 0) {
            throw new ConfigException(file.displayName() + ": every point is 0 " + unit.words()
                    + ": nothing would be sent; give the " + "load of at least one point");
        }
        long length = length(s, file, p, runMs, where);
        LoadProfile sized = p.withLength(length * 1_000_000L);
        int peakUsers = arrivals == Arrivals.CLOSED ? (int) p.peak() : users;
        return new ProfileSettings(sized, length, peakUsers, leave);
    }

    /** The leave policy and its grace; a grace beside another policy is refused (it would mean nothing). */
    private static LeaveRule leave(Settings s) {
        LeavePolicy policy = s.get(Keys.PROFILE_LEAVE);
        String key = "workload_profile_leave_grace_in_ms";
        long grace = s.get(Keys.PROFILE_LEAVE_GRACE_MS);
        Optional<PropertiesFile.Entry> given =
                s.entry(key).filter(e -> !e.value().isEmpty());
        if (given.isPresent() && policy != LeavePolicy.GRACEFUL) {
            throw new ConfigException(s.where(given.get()) + " and "
                    + s.where(s.entry(Keys.PROFILE_LEAVE.key()).orElseThrow()) + " " + policy.label()
                    + ": the grace bounds the graceful leave only;"
                    + " drop the grace, or leave graceful");
        }
        return new LeaveRule(policy, grace);
    }

    /** The key that names the profile, or null; a profile and the other arrival settings it replaces are refused together. */
    private static String profileKey(Settings s, Arrivals arrivals) {
        boolean profile = s.entry(Keys.PROFILE_FILE.key())
                .filter(e -> !e.value().isEmpty())
                .isPresent();
        boolean schedule = arrivals == Arrivals.HYBRID
                && s.entry(Keys.RATE_SCHEDULE_FILE.key())
                        .filter(e -> !e.value().isEmpty())
                        .isPresent();
        if (profile && schedule) {
            throw new ConfigException(
                    s.where(s.entry(Keys.RATE_SCHEDULE_FILE.key()).orElseThrow()) + " and "
                            + s.where(s.entry(Keys.PROFILE_FILE.key()).orElseThrow())
                            + ": a rate schedule is a load profile; give one of them");
        }
        String key = profile ? "workload_profile_file" : schedule ? "workload_rate_schedule_file" : null;
        if (key == null) {
            return null;
        }
        String[] replaced = arrivals == Arrivals.CLOSED
                ? new String[] {"workload_number_of_clients_per_node", "workload_sessions_per_user"}
                : new String[] {"workload_session_rate", "workload_interarrival_file"};
        for (String other : replaced) {
            if (s.givenOnCommandLine(other)
                    || other.equals("workload_interarrival_file")
                            && s.entry(other).filter(e -> !e.value().isEmpty()).isPresent()) {
                throw new ConfigException(s.where(s.entry(other).orElseThrow()) + " and "
                        + s.where(s.entry(key).orElseThrow())
                        + ": the load profile sets the " + (arrivals == Arrivals.CLOSED ? "users" : "session rate")
                        + " over the run phase; drop " + s.where(s.entry(other).orElseThrow()));
            }
        }
        return key;
    }

    /** The run phase's length: the profile's end line, or the run's duration when it has none. */
    private static long length(Settings s, Source file, LoadProfile p, long runMs, String where) {
        String durationKey = "workload_session_run_time_in_ms";
        if (p.lengthNs() >= 0) {
            long ms = Math.round(p.lengthNs() / 1e6);
            if (s.givenOnCommandLine(durationKey) && runMs != ms) {
                PropertiesFile.Entry e = s.entry(durationKey).orElseThrow();
                throw new ConfigException(s.given(e, e.value()) + ": the profile " + file.displayName() + " is "
                        + (ms < runMs ? "shorter" : "longer")
                        + " (its end at line " + p.endLine() + " is " + seconds(ms)
                        + " s into the run phase): the profile sets the run phase;"
                        + " drop the run time, or move the profile's end");
            }
            return ms;
        }
        LoadProfile.Point last = p.points().get(p.points().size() - 1);
        if (last.atNs() >= runMs * 1_000_000L) {
            throw new ConfigException(
                    file.displayName() + ":" + last.line() + ": a point at " + seconds(Math.round(last.atNs() / 1e6))
                            + " s, at or after the end of the run phase (" + seconds(runMs)
                            + " s): the profile is longer than the run; add a line "
                            + "'TIME end' to let the profile set the run phase, or lengthen the run (--duration)");
        }
        return runMs;
    }

    /** The bounds of every count, rate and think-time product, for one point. */
    private static void bound(
            Source file, LoadProfile.Point pt, ProfileUnit unit, long maxThinkMs, double upFactor, double downFactor) {
        String where = file.displayName() + ":" + pt.line();
        if (unit == ProfileUnit.USERS && pt.value() > Limits.MAX_USERS) {
            throw new ConfigException(
                    where + ": " + (long) pt.value() + " users, more than the maximum of " + Limits.MAX_USERS);
        }
        if (unit == ProfileUnit.RATE
                && pt.value() != 0
                && (pt.value() < Limits.MIN_RATE || pt.value() > Limits.MAX_RATE)) {
            throw new ConfigException(
                    where + ": a rate of " + pt.value() + " is out of range; expected 0 or a rate from "
                            + Limits.MIN_RATE + " to " + (long) Limits.MAX_RATE + " sessions per second");
        }
        double scaled = maxThinkMs * pt.thinkScale() * Math.max(1, Math.max(upFactor, downFactor));
        if (maxThinkMs > 0 && scaled > Limits.MAX_DURATION_MS) {
            throw new ConfigException(
                    where + ": think scale " + pt.thinkScale() + ": the longest think time (" + maxThinkMs
                            + " ms) times it (and the ramps' factors) is beyond the maximum of 30 days; expected a"
                            + " smaller think scale");
        }
    }

    /** A mix a point names: a packaged one by name, or a transition table file relative to the profile. */
    private static WorkloadModel mix(Settings s, WorkloadModel model, String name, Source profile, String where) {
        String packaged = PACKAGED_MIXES.get(name.toLowerCase(Locale.ROOT));
        Source table = packaged != null ? Source.classpath(packaged) : profile.resolve(name);
        if (packaged == null && !table.exists()) {
            throw new ConfigException(where + ": unknown mix \"" + Limits.abbreviate(name) + "\" (no file "
                    + table.displayName() + "); expected bidding, browsing or the path of a transition table file");
        }
        TransitionTable t;
        try {
            t = TransitionTable.parse(
                    table, model.table().columns(), model.table().rows());
        } catch (ConfigException e) {
            throw new ConfigException(where + ": mix \"" + Limits.abbreviate(name) + "\": " + e.getMessage());
        }
        s.noteFile("workload_profile_mix." + name, table);
        return model.withTable(t);
    }

    private static String seconds(long ms) {
        return BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString();
    }
}
