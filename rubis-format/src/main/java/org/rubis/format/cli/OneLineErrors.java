package org.rubis.format.cli;

import java.io.File;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rubis.format.text.Printable;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns picocli's parse errors into one line, {@code error: --opt: what was wrong, accepted: ...; see --help},
 * and a usage exit status (2 unless the program says otherwise: rubis-client's is 64, apart from its run
 * statuses): a typo must not bury its cause under the whole usage text. Shared by rubis-client,
 * rubis-server and rubis-analysis so that their parse errors read alike. It lives in rubis-format because that
 * is the one module all three programs depend on (they all write or read the run directory); a module of its
 * own for one class would be a module no program needs.
 */
public final class OneLineErrors implements CommandLine.IParameterExceptionHandler {

    /** Exit status of a command line that could not be parsed, unless the program gives its own. */
    public static final int USAGE_ERROR = 2;

    private final int status;

    private OneLineErrors(int status) {
        this.status = status;
    }

    /** Installs the handler on a command line (and, through picocli, on its subcommands), exiting {@link #USAGE_ERROR}. */
    public static CommandLine install(CommandLine cl) {
        return install(cl, USAGE_ERROR);
    }

    /** As {@link #install(CommandLine)}, exiting {@code status} on a parse error. */
    public static CommandLine install(CommandLine cl, int status) {
        cl.setParameterExceptionHandler(new OneLineErrors(status));
        return cl;
    }

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println(Printable.escape(message(ex)));
        err.flush();
        return status;
    }

    /** The one line printed for a parse error. */
    public static String message(ParameterException ex) {
        String help = "see " + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help";
        if (ex instanceof UnmatchedArgumentException u) {
            List<String> unmatched = u.getUnmatched();
            String arg = unmatched.isEmpty() ? "?" : unmatched.get(0);
            List<String> suggestions = u.getSuggestions();
            boolean option = arg.startsWith("-");
            String what = option ? "unknown option" : "unexpected argument";
            String hint = suggestions.isEmpty()
                    ? ""
                    : ", did you mean " + String.join(" or ", suggestions.subList(0, Math.min(3, suggestions.size())))
                            + "?";
            var commands = u.getCommandLine().getSubcommands().keySet();
            if (!option && !commands.isEmpty()) {
                return "error: " + arg + ": unknown command" + hint + ", accepted: " + String.join(", ", commands)
                        + "; " + help;
            }
            return "error: " + arg + ": " + what + hint + "; " + help;
        }
        ArgSpec spec = ex.getArgSpec();
        if (spec == null
                && ex instanceof CommandLine.MissingParameterException m
                && !m.getMissing().isEmpty()) {
            spec = m.getMissing().get(0);
        }
        if (spec == null) {
            return "error: " + oneLine(ex.getMessage()) + "; " + help;
        }
        String name = spec instanceof OptionSpec o ? o.longestName() : spec.paramLabel();
        String what;
        if (ex instanceof CommandLine.MissingParameterException) {
            what = "missing";
        } else if (ex.getValue() != null && spec.completionCandidates() == null && tail(ex.getMessage()) != null) {
            what = tail(ex.getMessage());
        } else if (ex.getValue() != null) {
            what = "invalid value '" + ex.getValue() + "'";
        } else {
            what = oneLine(ex.getMessage());
        }
        return "error: " + name + ": " + what + ", accepted: " + accepted(spec) + "; " + help;
    }

    /** What an argument accepts, from its candidates or its type. */
    private static String accepted(ArgSpec spec) {
        String base;
        if (spec.completionCandidates() != null) {
            List<String> c = new ArrayList<>();
            spec.completionCandidates().forEach(c::add);
            base = String.join(", ", c);
        } else {
            Class<?> t = spec.type();
            if (t == int.class || t == Integer.class || t == long.class || t == Long.class) {
                base = "an integer";
            } else if (t == double.class || t == Double.class || t == float.class || t == Float.class) {
                base = "a number";
            } else if (t == boolean.class || t == Boolean.class) {
                base = "true or false";
            } else if (Path.class.isAssignableFrom(t) || t == File.class) {
                base = "a path (" + spec.paramLabel() + ")";
            } else {
                base = spec.paramLabel();
            }
        }
        String def = spec.defaultValue();
        return def == null ? base : base + " (default " + def + ")";
    }

    /** The part of picocli's message after the option name, e.g. "'abc' is not an int". */
    private static String tail(String msg) {
        if (msg == null) {
            return null;
        }
        int i = msg.indexOf("': ");
        return i < 0 ? null : oneLine(msg.substring(i + 3));
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }
}
