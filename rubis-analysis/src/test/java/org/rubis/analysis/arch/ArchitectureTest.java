package org.rubis.analysis.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The analysis's packages in layers: io (reading run directories, with the one input error) at the bottom; stats, wire,
 * merge and export on it; the root's RunAnalysis and LittleLaw; report; the commands (cli) on top.
 */
@AnalyzeClasses(packages = "org.rubis.analysis", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule noPackageCycle =
            slices().matching("org.rubis.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule ioIsTheBottom = classes()
            .that()
            .resideInAPackage("org.rubis.analysis.io..")
            .should()
            .onlyDependOnClassesThat(
                    resideOutsideOfPackage("org.rubis.analysis..").or(resideInAPackage("org.rubis.analysis.io..")));

    @ArchTest
    static final ArchRule theCommandsAreTheTop = noClasses()
            .that()
            .resideOutsideOfPackage("org.rubis.analysis.cli..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("org.rubis.analysis.cli..");

    @ArchTest
    static final ArchRule onlyTheCommandsUsePicocli = noClasses()
            .that()
            .resideOutsideOfPackage("org.rubis.analysis.cli..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("picocli..");

    @ArchTest
    static final ArchRule onlyTheReportDraws = noClasses()
            .that()
            .resideOutsideOfPackage("org.rubis.analysis.report..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("org.knowm.xchart..")
            .because("the report's Charts is the one place that draws (rubis-lab's reproduction uses it too)");
}
