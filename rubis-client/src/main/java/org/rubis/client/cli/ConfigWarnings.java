package org.rubis.client.cli;

import java.io.PrintWriter;
import org.rubis.client.config.ClientConfig;
import org.rubis.format.text.Printable;

/**
 * Prints the configuration's warnings (unknown keys of the properties file, ignored commands, column sums)
 * before a run starts, one {@code warning: } line each on stderr: stated only in the end-of-run summary, a
 * misspelt key was found after the whole run had measured the wrong workload. Warnings about the packaged files
 * ({@code classpath:}, e.g. the original transition table's column sums, which compatible mode keeps on purpose) are
 * left to the summary: nothing the user gave is wrong, and a line before every run would teach them to skip warnings.
 */
final class ConfigWarnings {

    private ConfigWarnings() {}

    static void print(ClientConfig c, PrintWriter err) {
        c.warnings().stream()
                .filter(w -> !w.startsWith("classpath:"))
                .forEach(w -> err.println("warning: " + Printable.escape(w)));
        err.flush();
    }
}
