package org.rubis.format.cli;

import java.util.ArrayList;
import java.util.IllegalFormatException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The command-line reference in Markdown (docs/cli/), written from a program's picocli model: one page per command and
 * subcommand, with its description, usage, parameters, options with their defaults, and subcommands, in the words of
 * its {@code --help}. Generated rather than written, so that the reference cannot drift from the program; each
 * program's test regenerates it and fails when the checked-in pages differ. Markdown rather than picocli-codegen's
 * AsciiDoc man pages: the pages are read on the code host, where a table of options reads better than a man page.
 */
public final class CliReference {

    /** The first line of every page: generated, with the command that regenerates it. */
    public static final String GENERATED = "<!-- Generated from the programs' command lines: do not edit."
            + " Regenerate with: mvn -B -q -Pcli-docs -DskipTests package -->";

    private static final Pattern CODE = Pattern.compile("`[^`]*`");

    private CliReference() {}

    /** The page's file name of a command: its qualified name with dashes, e.g. {@code rubis-client-bench-rate.md}. */
    public static String fileName(CommandSpec spec) {
        return spec.qualifiedName("-") + ".md";
    }

    /**
     * Every page of the program rooted at {@code root}, by file name, in the order of the command tree (hidden
     * commands left out).
     *
     * @param launcher how users start the program, e.g. {@code bin/rubis-client}
     */
    public static Map<String, String> pages(CommandLine root, String launcher) {
        Map<String, String> pages = new LinkedHashMap<>();
        add(root, launcher, pages);
        return pages;
    }

    /** The index page: each program and its commands, each linked to its page. */
    public static String index(Map<String, CommandLine> programs) {
        StringBuilder b = new StringBuilder(GENERATED).append("\n\n# Command-line reference\n\n");
        b.append(
                "What each program's `--help` says, one page per command. Every option of `rubis-client run` also has a"
                        + " key in `rubis.properties` (`-Dkey=value` sets any key).\n");
        programs.forEach((launcher, root) -> {
            CommandSpec spec = root.getCommandSpec();
            b.append("\n## [")
                    .append(spec.name())
                    .append("](")
                    .append(fileName(spec))
                    .append(")\n\n");
            b.append(escape(first(spec)))
                    .append(" Started with `")
                    .append(launcher)
                    .append("`.\n");
            List<String> rows = new ArrayList<>();
            tree(root, rows, 0);
            if (!rows.isEmpty()) {
                b.append('\n');
                rows.forEach(r -> b.append(r).append('\n'));
            }
        });
        return b.toString();
    }

    private static void tree(CommandLine cl, List<String> rows, int depth) {
        for (CommandLine sub : visibleSubcommands(cl)) {
            CommandSpec s = sub.getCommandSpec();
            rows.add("  ".repeat(depth) + "- [`" + s.qualifiedName() + "`](" + fileName(s) + "): " + escape(first(s)));
            tree(sub, rows, depth + 1);
        }
    }

    private static void add(CommandLine cl, String launcher, Map<String, String> pages) {
        pages.put(fileName(cl.getCommandSpec()), page(cl, launcher));
        visibleSubcommands(cl).forEach(sub -> add(sub, launcher, pages));
    }

    private static List<CommandLine> visibleSubcommands(CommandLine cl) {
        List<CommandLine> subs = new ArrayList<>();
        for (var e : cl.getSubcommands().entrySet()) {
            CommandSpec s = e.getValue().getCommandSpec();
            // Aliases map to the same command: list it under its own name once.
            if (!s.usageMessage().hidden() && e.getKey().equals(s.name())) {
                subs.add(e.getValue());
            }
        }
        return subs;
    }

    private static String page(CommandLine cl, String launcher) {
        CommandSpec spec = cl.getCommandSpec();
        StringBuilder b = new StringBuilder(GENERATED)
                .append("\n\n# ")
                .append(spec.qualifiedName())
                .append("\n\n");
        CommandSpec parent = spec.parent();
        if (parent != null) {
            b.append("Part of [")
                    .append(parent.qualifiedName())
                    .append("](")
                    .append(fileName(parent))
                    .append(").\n\n");
        }
        for (String line : spec.usageMessage().description()) {
            b.append(escape(format(line))).append("\n\n");
        }
        b.append("Usage: `").append(synopsis(cl, launcher)).append("`\n");
        List<PositionalParamSpec> params = new ArrayList<>();
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (!p.hidden()) {
                params.add(p);
            }
        }
        if (!params.isEmpty()) {
            b.append("\n| parameter | description |\n|---|---|\n");
            for (PositionalParamSpec p : params) {
                b.append("| `")
                        .append(cell(p.paramLabel()))
                        .append("` | ")
                        .append(description(p))
                        .append(" |\n");
            }
        }
        List<OptionSpec> options = options(spec);
        if (!options.isEmpty()) {
            b.append("\n| option | default | description |\n|---|---|---|\n");
            for (OptionSpec o : options) {
                String def = shownDefault(spec, o);
                b.append("| ")
                        .append(names(o))
                        .append(" | ")
                        .append(def == null ? "" : "`" + cell(def) + "`")
                        .append(" | ")
                        .append(description(o))
                        .append(" |\n");
            }
        }
        List<CommandLine> subs = visibleSubcommands(cl);
        if (!subs.isEmpty()) {
            b.append("\n| command | description |\n|---|---|\n");
            for (CommandLine sub : subs) {
                CommandSpec s = sub.getCommandSpec();
                b.append("| [`")
                        .append(s.name())
                        .append("`](")
                        .append(fileName(s))
                        .append(") | ")
                        .append(cell(escape(first(s))))
                        .append(" |\n");
            }
        }
        for (String line : spec.usageMessage().footer()) {
            b.append('\n').append(escape(format(line))).append('\n');
        }
        return b.toString();
    }

    /** The options as the help lists them: the command's own first, then -h and -V; hidden ones left out. */
    private static List<OptionSpec> options(CommandSpec spec) {
        List<OptionSpec> own = new ArrayList<>();
        List<OptionSpec> standard = new ArrayList<>();
        for (OptionSpec o : spec.options()) {
            if (!o.hidden()) {
                (o.usageHelp() || o.versionHelp() ? standard : own).add(o);
            }
        }
        if (spec.usageMessage().sortOptions()) {
            own.sort((x, y) -> key(x).compareTo(key(y)));
        }
        own.addAll(standard);
        return own;
    }

    private static String key(OptionSpec o) {
        return o.shortestName().replaceFirst("^-+", "").toLowerCase(Locale.ROOT);
    }

    private static String synopsis(CommandLine cl, String launcher) {
        CommandSpec spec = cl.getCommandSpec();
        StringBuilder b = new StringBuilder(launcher);
        String path = spec.qualifiedName();
        int space = path.indexOf(' ');
        if (space > 0) {
            b.append(path.substring(space));
        }
        if (options(spec).stream().anyMatch(o -> !o.usageHelp() && !o.versionHelp())) {
            b.append(" [OPTIONS]");
        }
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (p.hidden()) {
                continue;
            }
            String label = p.paramLabel() + (p.arity().max() > 1 ? "..." : "");
            b.append(' ').append(p.arity().min() == 0 ? "[" + label + "]" : label);
        }
        if (!visibleSubcommands(cl).isEmpty()) {
            b.append(" COMMAND");
        }
        return cell(b.toString());
    }

    /** {@code `-p`, `--properties=FILE`}; a short option that takes key=value pairs reads {@code -Dkey=value}. */
    private static String names(OptionSpec o) {
        boolean takesValue = o.arity().max() > 0;
        String[] names = o.names();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < names.length; i++) {
            String n = names[i];
            boolean last = i == names.length - 1;
            String shown = n;
            if (last && takesValue) {
                boolean attached = Map.class.isAssignableFrom(o.type()) && !n.startsWith("--");
                shown = n + (attached ? "" : "=") + o.paramLabel();
            }
            b.append(i == 0 ? "" : ", ").append('`').append(cell(shown)).append('`');
        }
        return b.toString();
    }

    /** The default the help shows (the command's or the option's setting), or null. */
    private static String shownDefault(CommandSpec spec, OptionSpec o) {
        if (o.arity().max() == 0 || o.usageHelp() || o.versionHelp()) {
            return null; // a flag: absent is off
        }
        Visibility v = o.showDefaultValue();
        boolean show = v == Visibility.ALWAYS
                || v == Visibility.ON_DEMAND && spec.usageMessage().showDefaultValues();
        String def = o.defaultValueString();
        return show && def != null && !def.isEmpty() && !def.equals("null") ? def : null;
    }

    // renderedDescription() is deprecated in picocli 4.7 without a replacement that renders ${DEFAULT-VALUE} and the
    // other variables as --help does; the reference must read as the help reads.
    @SuppressWarnings("deprecation")
    private static String description(ArgSpec a) {
        List<String> lines = new ArrayList<>();
        for (String line : a.renderedDescription()) {
            lines.add(escape(format(line)));
        }
        return cell(String.join(" ", lines));
    }

    /** The first line of a command's header or description (what a list of commands shows). */
    private static String first(CommandSpec s) {
        String[] header = s.usageMessage().header();
        String[] description = s.usageMessage().description();
        return format(header.length > 0 ? header[0] : description.length > 0 ? description[0] : "");
    }

    /** As picocli formats a help line: {@code %n} and {@code %%} resolved. */
    private static String format(String s) {
        try {
            return String.format(s);
        } catch (IllegalFormatException e) {
            return s;
        }
    }

    /** Text for a table cell: no line break, no column separator. */
    private static String cell(String s) {
        return s.replace("\r", "").replace("\n", " ").replace("|", "\\|");
    }

    /** Markdown's special characters outside code spans escaped, so that help text reads as written. */
    static String escape(String s) {
        StringBuilder b = new StringBuilder();
        Matcher m = CODE.matcher(s);
        int at = 0;
        while (m.find()) {
            b.append(escapeText(s.substring(at, m.start()))).append(m.group());
            at = m.end();
        }
        return b.append(escapeText(s.substring(at))).toString();
    }

    private static String escapeText(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '\\', '*', '_', '[', ']', '#' -> b.append('\\').append(c);
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
