package org.rubis.client.arch;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import org.rubis.client.config.Keys;

/**
 * The client's packages as docs/ARCHITECTURE.md draws them, checked on the compiled main classes. Rules name packages
 * (layers), not classes, so that they stay true while classes move; each exception is stated with its reason.
 */
@AnalyzeClasses(packages = "org.rubis.client", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule noPackageCycle =
            slices().matching("org.rubis.client.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule onlyTheOuterRingUsesTheAnalysis = noClasses()
            .that()
            .resideOutsideOfPackages("org.rubis.client.wire..", "org.rubis.client.shard..", "org.rubis.client.cli..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("org.rubis.analysis..")
            .because("the core (engine, backend, workload, log, report and what they use) runs and measures on its "
                    + "own; the wire check "
                    + "(wire), the merge of shards (shard) and the capture's wiring (cli) are rubis-analysis's, "
                    + "called from outside the core");

    @ArchTest
    static final ArchRule nothingUsesTheServer = noClasses()
            .should()
            .dependOnClassesThat()
            .resideInAPackage("org.rubis.server..")
            .because("the embedded server runs in its own JVM, started by name from the classpath; what both need is "
                    + "in rubis-format");

    @ArchTest
    static final ArchRule onlyTheCommandLineUsesPicocli = noClasses()
            .that()
            .resideOutsideOfPackage("org.rubis.client.cli..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("picocli..");

    @ArchTest
    static final ArchRule onlyTheBackendsUseNettyOrHttpClient5 = noClasses()
            .that()
            .resideOutsideOfPackages("org.rubis.client.backend..", "org.rubis.client.log..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.netty..", "org.apache.hc..");

    @ArchTest
    static final ArchRule onlyTheKernelIoCallsNativeCode = noClasses()
            .that()
            .resideOutsideOfPackage("org.rubis.client.backend.kernel..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("java.lang.foreign..")
            .because("the kernel backend's I/O core (backend.kernel) is the one place that calls C: its sockets, "
                    + "epoll loops and time stamps, behind typed methods; the rest of the client stays in Java");

    @ArchTest
    static final ArchRule theLogTakesOnlyNettysQueue = noClasses()
            .that()
            .resideInAPackage("org.rubis.client.log..")
            .should()
            .dependOnClassesThat(resideInAnyPackage("io.netty..", "org.apache.hc..")
                    .and(not(resideInAPackage("io.netty.util.internal.."))))
            .because("the log's writer hand-off takes the lock-free multi-producer queue Netty ships (JCTools, "
                    + "io.netty.util.internal), "
                    + "the one such queue on the classpath; nothing else of Netty, and no HttpClient 5");

    @ArchTest
    static final ArchRule onlyTheLiveViewServesMetrics = noClasses()
            .that()
            .resideOutsideOfPackage("org.rubis.client.live..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.prometheus..", "com.sun.net.httpserver..")
            .because("the live view (docs/LIVE.md) is the one part that serves HTTP and speaks Prometheus; the engine "
                    + "feeds it through its observer hooks, off the timing path");

    @ArchTest
    static final ArchRule theEngineDoesNotKnowTheLiveView = noClasses()
            .that()
            .resideInAPackage("org.rubis.client.engine..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("org.rubis.client.live..")
            .because("the live view watches a run from outside (RunObserver: the log writer's records, the health "
                    + "sampler's seconds); a run without it is the same run");

    @ArchTest
    static final ArchRule onlyProcessStartsProcesses = noClasses()
            .that()
            .resideOutsideOfPackage("org.rubis.client.process..")
            .should()
            .dependOnClassesThat()
            .areAssignableTo(ProcessBuilder.class)
            .orShould()
            .callMethodWhere(target(owner(equivalentTo(Runtime.class))).and(target(name("exec"))))
            .because("other JVMs (the embedded server, child clients) are started by process alone");

    @ArchTest
    static final ArchRule runsOptionsAreWrittenForAChildOnlyByProcess = classes()
            .that()
            .resideOutsideOfPackages("org.rubis.client.cli..", "org.rubis.client.process..")
            .and()
            .doNotHaveFullyQualifiedName(Keys.class.getName())
            .should(StringConstants.nameNoLiteral("an option of run", RunOptions.NAMES::contains))
            .because("the cli declares run's options, the settings' table (config.Keys) the key each sets, and "
                    + "process writes the command lines of other JVMs (ClientCommandLine the client's, "
                    + "EmbeddedServerProcess the server's): a child started anywhere else would bypass the typed "
                    + "builder");

    @ArchTest
    static final ArchRule theEngineNamesNoCommandLineFlag = classes()
            .that()
            .resideInAPackage("org.rubis.client.engine..")
            .should(StringConstants.nameNoLiteral("a command-line flag", s -> s.matches("--[a-z].*")))
            .because("the engine runs a loaded configuration; flags are the command line's");

    @ArchTest
    static final ArchRule inputIsTheBottom = classes()
            .that()
            .resideInAPackage("org.rubis.client.input..")
            .should()
            .onlyDependOnClassesThat(
                    resideOutsideOfPackage("org.rubis.client..").or(resideInAPackage("org.rubis.client.input..")));

    @ArchTest
    static final ArchRule theEngineKnowsNoCommandLine = noClasses()
            .that()
            .resideInAPackage("org.rubis.client.engine..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.rubis.client.cli..", "org.rubis.client.shard..");

    @ArchTest
    static final ArchRule theReportDoesNotReachUp = noClasses()
            .that()
            .resideInAPackage("org.rubis.client.report..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.rubis.client.engine..", "org.rubis.client.cli..");

    @ArchTest
    static final ArchRule theWorkloadDoesNotReachUp = noClasses()
            .that()
            .resideInAPackage("org.rubis.client.workload..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.rubis.client.config..", "org.rubis.client.engine..");
}
