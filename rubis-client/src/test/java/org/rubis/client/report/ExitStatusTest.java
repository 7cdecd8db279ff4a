package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.rubis.format.RunStatus;

/**
 * README's exit-status table lists exactly the statuses the jar's run and every command use (ExitStatus), so that
 * scripts can rely on it.
 */
class ExitStatusTest {

    @Test
    void readmeDocumentsEveryExitStatusAndNoOther() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf("\n## Exit status");
        String section = readme.substring(start, readme.indexOf("\n## ", start + 1));
        TreeSet<Integer> documented = new TreeSet<>();
        // The rows of rubis-client.jar's statuses: those of any command and of run (the table lists every command's).
        Matcher m = Pattern.compile("(?m)^\\| (any|`run`) \\| (\\d+) \\|").matcher(section);
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
