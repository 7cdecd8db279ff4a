package org.rubis.server.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The embedded server's packages: no cycle, Netty where the HTTP is, the command line in the root package. */
@AnalyzeClasses(packages = "org.rubis.server", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule noPackageCycle =
            slices().matching("org.rubis.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule nettyOnlyWhereTheHttpIs = noClasses()
            .that()
            .resideOutsideOfPackages("org.rubis.server.http..", "org.rubis.server.app..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.netty..")
            .because("http serves with Netty (event model); app reads query strings with Netty's decoder; the data, "
                    + "the faults and the "
                    + "ground truth know no transport");

    @ArchTest
    static final ArchRule picocliOnlyInTheCommandLine = noClasses()
            .that()
            .resideOutsideOfPackage("org.rubis.server")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("picocli..")
            .because("ServerMain, in the root package, is the server's command line");

    @ArchTest
    static final ArchRule theGroundTruthKnowsNoServerModel = noClasses()
            .that()
            .resideInAPackage("org.rubis.server.truth..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.rubis.server.http..", "org.rubis.server.app..")
            .because("the server's own log is written the same way by every model");
}
