package org.rubis.format.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * What the programs share stays small and self-contained, in packages by job: no cycle, the fault-spec language on the
 * JDK alone, the run directory's vocabulary ({@code run}) and file handling ({@code io}) at the bottom, the shared
 * rules ({@code stats}) above the vocabulary, summary.json's records ({@code schema}) above both, summary.txt's text
 * ({@code text}) above the records, and the command-line help ({@code cli}), the only picocli code, on top.
 */
@AnalyzeClasses(packages = "org.rubis.format", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule noPackageCycle =
            slices().matching("org.rubis.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule theFaultLanguageNeedsOnlyTheJdk = classes()
            .that()
            .resideInAPackage("org.rubis.format.fault..")
            .should()
            .onlyDependOnClassesThat(resideInAPackage("java..").or(resideInAPackage("org.rubis.format.fault..")))
            .because("the client checks a spec at load and the server parses it: the same grammar, with nothing else "
                    + "attached");

    @ArchTest
    static final ArchRule packagesByJob = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer("cli")
            .definedBy("org.rubis.format.cli..")
            .layer("text")
            .definedBy("org.rubis.format.text..")
            .layer("schema")
            .definedBy("org.rubis.format.schema..")
            .layer("stats")
            .definedBy("org.rubis.format.stats..")
            .layer("run")
            .definedBy("org.rubis.format.run..")
            .layer("io")
            .definedBy("org.rubis.format.io..")
            .layer("fault")
            .definedBy("org.rubis.format.fault..")
            .whereLayer("cli")
            .mayNotBeAccessedByAnyLayer()
            .whereLayer("text")
            .mayOnlyBeAccessedByLayers("cli")
            .whereLayer("schema")
            .mayOnlyBeAccessedByLayers("text")
            .whereLayer("stats")
            .mayOnlyBeAccessedByLayers("schema", "text")
            .whereLayer("run")
            .mayOnlyBeAccessedByLayers("stats", "schema", "text", "cli")
            .whereLayer("io")
            .mayNotBeAccessedByAnyLayer()
            .whereLayer("fault")
            .mayNotBeAccessedByAnyLayer();

    @ArchTest
    static final ArchRule picocliOnlyForTheOneLineErrors = noClasses()
            .that()
            .resideOutsideOfPackage("org.rubis.format.cli")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("picocli..")
            .because(
                    "OneLineErrors and WholeWordHelp, the three programs' parse-error format and help layout, are the only"
                            + " command-line code here");

    @ArchTest
    static final ArchRule noProgramModule = classes()
            .should()
            .onlyDependOnClassesThat(resideOutsideOfPackage("org.rubis..").or(resideInAPackage("org.rubis.format..")))
            .because("the three programs depend on this module, never the other way");
}
