package org.rubis.client.arch;

import java.util.Set;
import java.util.stream.Collectors;
import org.rubis.client.cli.RunCommand;
import picocli.CommandLine;

/** run's options by their long names, read from run's own command line: what the literal rules look for. */
public final class RunOptions {

    /** {@code --users}, {@code --backend}, ... (not {@code --help}, {@code --version}). */
    public static final Set<String> NAMES = new CommandLine(new RunCommand())
            .getCommandSpec().optionsMap().keySet().stream()
                    .filter(n -> n.startsWith("--") && !n.equals("--help") && !n.equals("--version"))
                    .collect(Collectors.toUnmodifiableSet());

    private RunOptions() {}
}
