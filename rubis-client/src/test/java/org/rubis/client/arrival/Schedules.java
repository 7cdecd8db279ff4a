package org.rubis.client.arrival;

import java.nio.file.Path;
import org.rubis.client.input.Source;
import org.rubis.client.profile.LoadProfile;
import org.rubis.client.profile.ProfileFile;
import org.rubis.client.profile.ProfileUnit;

/** Rate schedules (load profiles of session rates) as a test reads them: no mix, no up ramp. */
public final class Schedules {

    private Schedules() {}

    public static LoadProfile profile(Path file) {
        return ProfileFile.read(
                Source.file(file),
                new ProfileFile.Defaults(ProfileUnit.RATE, null, "shape", null, "table", 1.0),
                (mix, p, where) -> {
                    throw new AssertionError("no mixes here");
                });
    }

    /** The arrivals of a schedule file, starting at the run phase's start (no up ramp). */
    public static ProfileArrivals arrivals(Path file, boolean exponential, long seed) {
        return new ProfileArrivals(profile(file), 0, exponential, seed);
    }
}
