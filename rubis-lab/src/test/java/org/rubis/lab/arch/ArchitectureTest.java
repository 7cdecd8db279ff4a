package org.rubis.lab.arch;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.rubis.client.arch.RunOptions;
import org.rubis.client.arch.StringConstants;
import org.rubis.client.workload.Interaction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The lab drives the emulator from outside: through its command line (process.ClientCommandLine), its configuration
 * vocabulary and its run directories, never through its engine. Rules by package; exceptions stated with their reason.
 */
@AnalyzeClasses(packages = "org.rubis.lab", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule noPackageCycle =
            slices().matching("org.rubis.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule theLabUsesTheClientFromOutside = classes()
            .should()
            .onlyDependOnClassesThat(resideOutsideOfPackage("org.rubis.client..")
                    .or(resideInAnyPackage(
                                    "org.rubis.client.cli..",
                                    "org.rubis.client.config..",
                                    "org.rubis.client.input..",
                                    "org.rubis.client.process..",
                                    "org.rubis.client.report..",
                                    "org.rubis.client.log..")
                            .or(type(Interaction.class))))
            .because("the lab starts the client as a child JVM (process), in its vocabulary (config, the "
                    + "command-line option blocks of cli), "
                    + "and reads its run directories (report's SummaryFile, rubis-analysis); bench report writes one "
                    + "with the client's log writer (log, and the states its records name); the engine, backends "
                    + "and workload are the "
                    + "child's business");

    @ArchTest
    static final ArchRule noChildCommandLineOutsideTheBuilder = classes()
            .should(StringConstants.nameNoLiteral("an option of run", RunOptions.NAMES::contains))
            .because("every client the lab starts is written by process.ClientCommandLine, the one place that names "
                    + "run's options");

    @ArchTest
    static final ArchRule processesOnlyThroughTheClientOrHost = noClasses()
            .that()
            .resideOutsideOfPackage("org.rubis.lab.host..")
            .should()
            .dependOnClassesThat()
            .areAssignableTo(ProcessBuilder.class)
            .orShould()
            .callMethodWhere(target(owner(equivalentTo(Runtime.class))).and(target(name("exec"))))
            .because("client JVMs start through the client's process.ChildJvm; host holds the programs of bench rate "
                    + "that are not JVMs "
                    + "(lighttpd, taskset, wrk, httperf)");

    @ArchTest
    static final ArchRule picocliOnlyInCommandsAndTheirOptionBlocks =
            classes().that(usePicocli()).should(beACommandOrAnOptionBlock());

    @ArchTest
    static final ArchRule noNettyNorHttpClient5 =
            noClasses().should().dependOnClassesThat().resideInAnyPackage("io.netty..", "org.apache.hc..");

    private static DescribedPredicate<JavaClass> usePicocli() {
        return DescribedPredicate.describe(
                "use picocli",
                c -> c.getDirectDependenciesFromSelf().stream()
                        .anyMatch(d -> d.getTargetClass().getPackageName().startsWith("picocli")));
    }

    /**
     * Annotated {@code @Command}, or a block of options (a field with {@code @Option}, {@code @Parameters} or
     * {@code @Mixin}).
     */
    private static ArchCondition<JavaClass> beACommandOrAnOptionBlock() {
        return new ArchCondition<>("be a command or a block of options (the command-line layer)") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                boolean command = c.isAnnotatedWith(Command.class);
                boolean options = c.getFields().stream().anyMatch(ArchitectureTest::isOption);
                events.add(new SimpleConditionEvent(
                        c, command || options, c.getName() + " uses picocli but is neither a command nor options"));
            }
        };
    }

    private static boolean isOption(JavaField f) {
        return f.isAnnotatedWith(Option.class) || f.isAnnotatedWith(Parameters.class) || f.isAnnotatedWith(Mixin.class);
    }
}
