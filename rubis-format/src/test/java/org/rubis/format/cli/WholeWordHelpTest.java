package org.rubis.format.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** Help lines break at spaces only: a file name, a URL or an option name is never split over two lines. */
class WholeWordHelpTest {

    private static final String[] WORDS = {
        "requests.csv", "http://127.0.0.1:8080/PHP/", "--ramp-up", "RUN_DIR/report.html"
    };

    /** A command whose description, option description and subcommand description put each word at every column. */
    private static CommandLine command(int shift) {
        String text = "x ".repeat(shift) + "the words " + String.join(" and ", WORDS) + " in a sentence long enough to "
                + "wrap: " + String.join(", ", WORDS) + ".";
        CommandSpec sub = CommandSpec.create().name("sub");
        sub.usageMessage().description(text);
        CommandSpec spec = CommandSpec.create().name("prog");
        spec.usageMessage().description(text).footer(text);
        spec.addOption(OptionSpec.builder("--out")
                .paramLabel("FILE")
                .type(String.class)
                .description(text)
                .build());
        CommandLine cl = new CommandLine(spec);
        cl.addSubcommand("sub", new CommandLine(sub));
        return cl;
    }

    private static String usage(CommandLine cl) {
        StringWriter w = new StringWriter();
        cl.usage(new PrintWriter(w, true), CommandLine.Help.Ansi.OFF);
        return w.toString();
    }

    @Test
    void wordsStayWhole() {
        for (int shift = 0; shift < 40; shift++) {
            CommandLine cl = command(shift);
            cl.setHelpFactory(WholeWordHelp::new);
            String help = usage(cl);
            for (String word : WORDS) {
                // Each word appears once in each of the four texts, twice in each: 8 whole occurrences.
                assertEquals(8, help.split(Pattern.quote(word), -1).length - 1, shift + ": " + word + "\n" + help);
            }
            assertTrue(help.lines().allMatch(l -> l.length() <= 80), help);
            assertFalse(help.chars().anyMatch(c -> c >= 0xE000 && c < 0xE100), help);
        }
    }

    /** The default layout does split them (what this class is for): the test above can fail. */
    @Test
    void picocliAloneSplitsThem() {
        boolean split = false;
        for (int shift = 0; shift < 40 && !split; shift++) {
            String help = usage(command(shift));
            for (String word : WORDS) {
                split |= help.split(Pattern.quote(word), -1).length - 1 < 8;
            }
        }
        assertTrue(split);
    }
}
