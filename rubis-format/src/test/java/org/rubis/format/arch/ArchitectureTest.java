package org.rubis.format.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** What the programs share stays small and self-contained: no cycle, the fault-spec language on the JDK alone. */
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
    static final ArchRule picocliOnlyForTheOneLineErrors = noClasses()
            .that()
            .resideOutsideOfPackage("org.rubis.format")
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
