package org.rubis.client.cli;

import org.rubis.client.report.ExitStatus;
import java.io.PrintWriter;
import org.rubis.client.input.ConfigException;
import org.rubis.format.OneLineErrors;
import org.rubis.format.Printable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code rubis-client.jar}. User mistakes (command line or configuration) print one line and exit
 * {@link ExitStatus#USAGE}; no stack traces. {@link ExitStatus} has the whole table.
 */
@Command(name = "rubis-client", mixinStandardHelpOptions = true, version = "rubis-client 0.1.0",
        description = "A trustworthy RUBiS workload generator.",
        subcommands = {ValidateCommand.class, RunCommand.class, org.rubis.client.experiment.BenchCommand.class,
                org.rubis.client.experiment.CapacityCommand.class, org.rubis.client.experiment.AccuracyCommand.class,
                org.rubis.client.reproduce.ReproduceCommand.class})
public final class RubisClientMain {

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs a command line; returns the exit status (used by tests as well). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new RubisClientMain());
        Choices.register(cl);
        cl.setHelpFactory(DefineLabel::help);
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof ConfigException) {
                err.println("error: " + Printable.escape(ex.getMessage()));
                err.flush();
                return ExitStatus.USAGE;
            }
            // Not a user mistake: a bug. Say so in one line, then give the trace for the report.
            err.println("error: unexpected failure (a bug in rubis-client; please report it with the trace below): "
                    + Printable.escape(ex.toString()));
            ex.printStackTrace(err);
            err.flush();
            return ExitStatus.BUG;
        });
        // Parse errors: OneLineErrors' one line, with this program's usage status (not the shared default).
        OneLineErrors.install(cl, ExitStatus.USAGE);
        if (args.length == 0) {
            // No subcommand is a usage error: the usage goes to stderr, so that a script's output stays clean.
            cl.usage(err);
            err.flush();
            return ExitStatus.USAGE;
        }
        return cl.execute(args);
    }
}
