package org.rubis.client.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.GivenOption;
import org.rubis.client.input.ConfigException;
import org.rubis.client.preflight.PreflightReport;
import org.rubis.client.report.ExitStatus;
import org.rubis.client.workload.TransitionTable;
import org.rubis.format.text.Printable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Loads a configuration and its tables, and shows what a run would use. */
@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        description = "Load a properties file and its transition table; print the resolved configuration, "
                + "the table's states and the column-sum report. With --target URL, then probe that RUBiS "
                + "deployment: the pages the table uses, the users, items, regions and categories the "
                + "configuration needs in its database, and its keep-alive behaviour, each problem one line. "
                + "Exit 0 when loadable (and the target fits), 64 when not loadable, 69 when the target does not "
                + "fit.")
public final class ValidateCommand implements Callable<Integer> {

    @Mixin
    ConfigOptions config;

    @Option(
            names = "--target",
            paramLabel = "URL",
            description = "Probe this RUBiS deployment (http://HOST:PORT) with the configuration's database keys "
                    + "(docs/OWN-RUBIS.md)")
    String target;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if ("embedded".equals(target)) {
            throw new ConfigException("--target embedded: validate probes a deployment of your own, by URL (the"
                    + " embedded server is populated from the configuration and fits it); give --target"
                    + " http://HOST:PORT");
        }
        Map<String, GivenOption> given = new LinkedHashMap<>();
        ClientConfig c = config.load(OptionBinding.bind(spec.commandLine().getParseResult(), given), given);
        PrintWriter out = spec.commandLine().getOut();
        out.println("Configuration: " + c.source());
        c.resolved().forEach((k, v) -> out.printf(Locale.ROOT, "  %-28s %s%n", k, v));
        TransitionTable t = c.workload().table();
        out.println();
        out.printf(
                Locale.ROOT,
                "Transition table: %s%n  name: %s%n  %d states + Back + End of Session%n",
                t.source(),
                t.name(),
                t.columns());
        for (int i = 0; i < t.rows(); i++) {
            out.printf(Locale.ROOT, "  %2d %s%n", i, t.stateNames().get(i));
        }
        out.println();
        var dev = t.columnSumDeviations();
        if (dev.isEmpty()) {
            out.println("Column sums: all columns sum to 1 (within " + TransitionTable.SUM_TOLERANCE + ")");
        } else {
            out.println("Column sums differing from 1 by more than " + TransitionTable.SUM_TOLERANCE + " (" + dev.size()
                    + " of " + t.columns() + "):");
            for (var d : dev) {
                out.printf(Locale.ROOT, "  %-28s %.4f%n", d.state(), d.sum());
            }
        }
        if (!c.warnings().isEmpty()) {
            out.println();
            out.println("Warnings:");
            c.warnings().forEach(w -> out.println("  " + Printable.escape(w)));
        }
        out.println();
        out.println("OK: loadable");
        out.flush();
        if (target == null) {
            return 0;
        }
        out.println();
        PreflightReport report = TargetPreflight.of(c).check();
        report.print(out);
        return report.problems().isEmpty() ? ExitStatus.OK : ExitStatus.TARGET_DOES_NOT_FIT;
    }
}
