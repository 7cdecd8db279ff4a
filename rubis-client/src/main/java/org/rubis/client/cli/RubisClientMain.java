package org.rubis.client.cli;

import java.io.PrintWriter;
import org.rubis.client.input.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code rubis-client.jar}. User mistakes print one line and exit 1 (2 for a bad command line); no stack traces. */
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
        CommandLine cl = org.rubis.format.OneLineErrors.install(new CommandLine(new RubisClientMain()));
        Choices.register(cl);
        cl.setHelpFactory(DefineLabel::help);
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof ConfigException) {
                err.println("error: " + ex.getMessage());
                err.flush();
                return 1;
            }
            // Not a user mistake: a bug. Say so in one line, then give the trace for the report.
            err.println("error: unexpected failure (a bug in rubis-client; please report it with the trace below): " + ex);
            ex.printStackTrace(err);
            err.flush();
            return 3;
        });
        return cl.execute(args.length == 0 ? new String[] {"--help"} : args);
    }
}
