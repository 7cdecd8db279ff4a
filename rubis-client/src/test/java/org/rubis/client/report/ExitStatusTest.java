package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.rubis.format.run.RunStatus;

/** docs/RUNNING.md's exit-status table lists exactly the statuses the jar uses (ExitStatus), so that scripts can rely on it. */
class ExitStatusTest {

    @Test
    void runningDocDocumentsEveryExitStatusAndNoOther() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "RUNNING.md"));
        int start = doc.indexOf("\n## Exit status");
        assertTrue(start >= 0, "docs/RUNNING.md has no section Exit status");
        int end = doc.indexOf("\n## ", start + 1);
        String section = doc.substring(start, end < 0 ? doc.length() : end);
        TreeSet<Integer> documented = new TreeSet<>();
        // rubis-client's rows: those of any command, of run and of validate (the table lists every command's statuses).
        Matcher m = Pattern.compile("(?m)^\\| (any|`run`|`validate`) \\| (\\d+) \\|")
                .matcher(section);
        while (m.find()) {
            documented.add(Integer.parseInt(m.group(2)));
        }
        TreeSet<Integer> used = new TreeSet<>();
        for (Field f : ExitStatus.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) {
                used.add(f.getInt(null));
            }
        }
        assertEquals(used, documented);
    }

    /** Each run status has its own documented code (a merged failed run once exited 130, as if stopped by Ctrl-C). */
    @Test
    void eachRunStatusMapsToItsCode() {
        assertEquals(ExitStatus.OK, RunStatus.COMPLETE.exitCode());
        assertEquals(ExitStatus.PARTIAL, RunStatus.PARTIAL.exitCode());
        for (RunStatus s : new RunStatus[] {RunStatus.INVALID, RunStatus.FAILED, RunStatus.TARGET_DIED}) {
            assertEquals(ExitStatus.NOT_A_MEASUREMENT, s.exitCode(), s.label());
        }
    }
}
