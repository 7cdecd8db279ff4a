package org.rubis.client.arch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rubis.client.config.Keys;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.process.ResourcePlan;

/**
 * The literal rules read what the source says: the builder's own option names and the table's (config.Keys) are
 * literals of their class files, annotations are not.
 */
class StringConstantsTest {

    @Test
    void theBuildersOptionsAreItsLiteralsAndRunsOptionsAreKnown() {
        Set<String> builder = StringConstants.of(new ClassFileImporter().importClass(ClientCommandLine.class));
        assertTrue(builder.containsAll(Set.of("--out", "run", "-jar")), builder.toString());
        Set<String> table = StringConstants.of(new ClassFileImporter().importClass(Keys.class));
        assertTrue(table.containsAll(Set.of("--backend", "--users", "--jit-warmup")), table.toString());
        assertTrue(
                RunOptions.NAMES.containsAll(Set.of("--backend", "--users", "--duration", "--jvm-profile", "--out")),
                RunOptions.NAMES.toString());
    }

    @Test
    void aClassWithoutOptionLiteralsHasNone() {
        Set<String> plan = StringConstants.of(new ClassFileImporter().importClass(ResourcePlan.class));
        assertFalse(plan.stream().anyMatch(RunOptions.NAMES::contains), plan.toString());
        assertTrue(plan.stream().anyMatch(s -> s.contains("ulimit -n")), "its messages are read: " + plan);
    }
}
