package org.rubis.client.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.workload.TransitionTable;
import org.rubis.format.Printable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Loads a configuration and its tables, and shows what a run would use. */
@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        description = "Load a properties file and its transition table; print the resolved configuration, "
                + "the table's states and the column-sum report. Exit 0 when loadable, 64 otherwise.")
public final class ValidateCommand implements Callable<Integer> {

    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        ClientConfig c = config.load(Map.of());
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
        return 0;
    }
}
