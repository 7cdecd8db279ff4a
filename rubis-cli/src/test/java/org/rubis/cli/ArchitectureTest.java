package org.rubis.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.HashSet;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The program's main is the one list of commands: every command of the emulator and of the lab is reachable from it
 * (none written and left out of rubis-client.jar), and only this module composes them.
 */
@AnalyzeClasses(
        packages = {"org.rubis.client", "org.rubis.lab", "org.rubis.cli"},
        importOptions = {ImportOption.DoNotIncludeTests.class, ArchitectureTest.NoTestJars.class})
class ArchitectureTest {

    /** The test-jars of the modules below hold test classes only. */
    static final class NoTestJars implements ImportOption {
        @Override
        public boolean includes(Location location) {
            return !location.contains("-tests.jar");
        }
    }

    @ArchTest
    static final ArchRule everyCommandIsListed =
            classes().that().areAnnotatedWith(Command.class).should(beInTheProgramsCommandTree());

    @ArchTest
    static final ArchRule onlyTheProgramComposesTheModules = noClasses()
            .that()
            .resideOutsideOfPackage("org.rubis.cli..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("org.rubis.cli..")
            .because("rubis-cli is the top: the emulator and the lab know nothing of it");

    private static ArchCondition<JavaClass> beInTheProgramsCommandTree() {
        Set<Class<?>> listed = new HashSet<>();
        collect(new CommandLine(new RubisClientMain()), listed);
        return new ArchCondition<>("be reachable from RubisClientMain's commands") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                boolean in = listed.stream().anyMatch(l -> l.getName().equals(c.getName()));
                events.add(new SimpleConditionEvent(
                        c, in, c.getName() + " is a command that rubis-client.jar does not list"));
            }
        };
    }

    private static void collect(CommandLine cl, Set<Class<?>> listed) {
        listed.add(cl.getCommandSpec().userObject().getClass());
        cl.getSubcommands().values().forEach(sub -> collect(sub, listed));
    }
}
