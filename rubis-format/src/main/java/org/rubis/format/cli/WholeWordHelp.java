package org.rubis.format.cli;

import java.util.IllegalFormatException;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.Column.Overflow;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Help text that wraps lines at spaces only. Picocli wraps with the JDK's line {@link java.text.BreakIterator}, which
 * also breaks after a dot, a colon or a slash followed by a letter, so a description could end a line in
 * {@code requests.} and start the next with {@code csv}, or split {@code http://}. Inside a word (punctuation followed
 * by a character that is not a space) this layout stands each punctuation mark in for a private-use character, which
 * the iterator treats as a letter, and puts the mark back in the rendered text. Shared by the three programs' help
 * (each one sets it with {@code setHelpFactory(WholeWordHelp::new)}), as {@link OneLineErrors} is.
 */
public class WholeWordHelp extends Help {

    /** Start of the private-use block standing in for the ASCII punctuation marks (U+E000 + the mark). */
    private static final char STAND_IN = '\uE000';

    public WholeWordHelp(CommandSpec spec, ColorScheme colors) {
        super(spec, colors);
    }

    @Override
    public Layout createDefaultLayout(
            List<OptionSpec> options, List<PositionalParamSpec> parameters, ColorScheme scheme) {
        Layout standard = super.createDefaultLayout(options, parameters, scheme);
        TextTable table = standard.textTable();
        WordTable words = new WordTable(standard.colorScheme(), table.columns());
        words.indentWrappedLines = table.indentWrappedLines;
        words.setAdjustLineBreaksForWideCJKCharacters(table.isAdjustLineBreaksForWideCJKCharacters());
        return new Layout(standard.colorScheme(), words, standard.optionRenderer(), standard.parameterRenderer());
    }

    @Override
    public String description(Object... params) {
        return lines(commandSpec().usageMessage().description(), params);
    }

    @Override
    public String header(Object... params) {
        return lines(commandSpec().usageMessage().header(), params);
    }

    @Override
    public String footer(Object... params) {
        return lines(commandSpec().usageMessage().footer(), params);
    }

    /** The subcommands with the first line of their header or description, as picocli lays them out. */
    @Override
    public String commandList(Map<String, Help> subcommands) {
        if (subcommands.isEmpty()) {
            return "";
        }
        int width = width();
        int names = Math.min(
                width / 2,
                subcommands.keySet().stream().mapToInt(String::length).max().orElse(0));
        WordTable table = new WordTable(
                colorScheme(),
                new Column(names + 2, 2, Overflow.SPAN),
                new Column(width - (names + 2), 2, Overflow.WRAP));
        table.setAdjustLineBreaksForWideCJKCharacters(adjustCjk());
        for (Help sub : subcommands.values()) {
            String[] header = sub.commandSpec().usageMessage().header();
            String[] description = sub.commandSpec().usageMessage().description();
            String first = header.length > 0 ? header[0] : description.length > 0 ? description[0] : "";
            Text[] lines = colorScheme().text(format(first)).splitLines();
            for (int i = 0; i < lines.length; i++) {
                table.addRowValues(
                        i == 0 ? sub.commandNamesText(", ") : colorScheme().text(""), lines[i]);
            }
        }
        return table.toString();
    }

    /** A block of lines (description, header, footer) in one column of the help's width. */
    private String lines(String[] lines, Object... params) {
        if (lines == null || lines.length == 0) {
            return "";
        }
        WordTable table = new WordTable(colorScheme(), new Column(width(), 0, Overflow.WRAP));
        table.setAdjustLineBreaksForWideCJKCharacters(adjustCjk());
        table.indentWrappedLines = 0;
        for (String line : lines) {
            table.addRowValues(format(line, params));
        }
        return table.toString();
    }

    private int width() {
        return commandSpec().usageMessage().width();
    }

    private boolean adjustCjk() {
        return commandSpec().usageMessage().adjustLineBreaksForWideCJKCharacters();
    }

    /** As picocli formats a help line: {@code %n} and {@code %%} resolved; a line that is no format stays as it is. */
    private static String format(String s, Object... params) {
        if (s == null) {
            return "";
        }
        try {
            return String.format(s, params);
        } catch (IllegalFormatException e) {
            return s;
        }
    }

    /** The text with the punctuation inside words replaced by stand-ins (no line break there). */
    static String joinWords(String s) {
        StringBuilder b = null;
        for (int i = 0; i + 1 < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80
                    && !Character.isLetterOrDigit(c)
                    && !Character.isWhitespace(c)
                    && !Character.isWhitespace(s.charAt(i + 1))) {
                if (b == null) {
                    b = new StringBuilder(s);
                }
                b.setCharAt(i, (char) (STAND_IN + c));
            }
        }
        return b == null ? s : b.toString();
    }

    /** The rendered text with the stand-ins back to their punctuation marks. */
    static void restore(StringBuilder b, int from) {
        for (int i = from; i < b.length(); i++) {
            char c = b.charAt(i);
            if (c >= STAND_IN && c < STAND_IN + 0x80) {
                b.setCharAt(i, (char) (c - STAND_IN));
            }
        }
    }

    /** A text table that breaks lines at spaces only (plain texts; styled ones, the option names, stay as they are). */
    private static final class WordTable extends TextTable {

        private final ColorScheme scheme;

        WordTable(ColorScheme scheme, Column... columns) {
            super(scheme, columns);
            this.scheme = scheme;
        }

        @Override
        public Cell putValue(int row, int col, Text value) {
            String plain = value.plainString();
            String joined = joinWords(plain);
            if (joined.equals(plain) || !value.toString().equals(plain)) {
                return super.putValue(row, col, value);
            }
            return super.putValue(row, col, scheme.ansi().new Text(joined, scheme));
        }

        @Override
        public StringBuilder toString(StringBuilder text) {
            int from = text.length();
            super.toString(text);
            restore(text, from);
            return text;
        }

        @Override
        public String toString() {
            return toString(new StringBuilder()).toString();
        }
    }
}
