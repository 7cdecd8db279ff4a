package org.rubis.cli;

import java.io.PrintWriter;
import org.rubis.client.cli.Choices;
import org.rubis.client.cli.DefineLabel;
import org.rubis.client.cli.ProfileCommand;
import org.rubis.client.cli.RunCommand;
import org.rubis.client.cli.ValidateCommand;
import org.rubis.client.input.ConfigException;
import org.rubis.client.report.ExitStatus;
import org.rubis.format.cli.OneLineErrors;
import org.rubis.format.text.Printable;
import org.rubis.lab.accuracy.AccuracyCommand;
import org.rubis.lab.bench.BenchCommand;
import org.rubis.lab.capacity.CapacityCommand;
import org.rubis.lab.reproduce.ReproduceCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code rubis-client.jar}: the one place that lists every command, the emulator's (validate, run, profile) and
 * the lab's (bench, capacity, accuracy, reproduce), which sit in the module below this one and run the emulator as a
 * child JVM. User mistakes (command line or configuration) print one line and exit {@link ExitStatus#USAGE}; no stack
 * traces. {@link ExitStatus} has the whole table.
 */
@Command(
        name = "rubis-client",
        mixinStandardHelpOptions = true,
        version = "rubis-client 0.1.0",
        description = "A trustworthy RUBiS workload generator.",
        subcommands = {
            ValidateCommand.class,
            RunCommand.class,
            ProfileCommand.class,
            BenchCommand.class,
            CapacityCommand.class,
            AccuracyCommand.class,
            ReproduceCommand.class
        })
public final class RubisClientMain {

    public static void main(String[] args) {
        SignalExit.install(); // SIGINT and SIGTERM exit with the command's status (130 for a stopped run), never 143
        SignalExit.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs a command line; returns the exit status (used by tests as well). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = commandLine(out, err);
        if (args.length == 0) {
            // No subcommand is a usage error: the usage goes to stderr, so that a script's output stays clean.
            cl.usage(err);
            err.flush();
            return ExitStatus.USAGE;
        }
        return cl.execute(args);
    }

    /** The program's command line with its error handling and help layout (also what docs/cli/ is generated from). */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
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
            if (SignalExit.signalled()) {
                // Stopped by SIGINT or SIGTERM: what failed then (a child JVM that could not start) is the stop's
                // doing.
                err.println("error: stopped (SIGINT/SIGTERM): " + Printable.escape(ex.toString()));
                err.flush();
                return ExitStatus.PARTIAL;
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
        return cl;
    }
}
