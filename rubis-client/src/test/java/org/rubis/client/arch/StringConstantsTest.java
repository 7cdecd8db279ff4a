package org.rubis.client.arch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.process.ResourcePlan;

/**
 * The literal rules read what the source says: the builder's option names are literals of its class file, annotations
 * are not.
 */
class StringConstantsTest {

    @Test
    void theBuildersOptionsAreItsLiteralsAndRunsOptionsAreKnown() {
        Set<String> builder = StringConstants.of(new ClassFileImporter().importClass(ClientCommandLine.class));
        assertTrue(
                builder.containsAll(Set.of("--backend", "--users", "--jit-warmup", "--out", "run", "-jar")),
                builder.toString());
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
