package org.rubis.jmh;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The benchmarks measure the emulator's hot paths through its own classes; nothing of ours depends on them. */
@AnalyzeClasses(packages = "org.rubis.jmh", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule noPackageCycle =
            slices().matching("org.rubis.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule benchmarksMeasureTheEmulatorNotItsCommandLine = noClasses()
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.rubis.client.cli..", "org.rubis.lab..", "org.rubis.cli..")
            .because("a benchmark times code on the request path; the command line and the lab are not on it");
}
