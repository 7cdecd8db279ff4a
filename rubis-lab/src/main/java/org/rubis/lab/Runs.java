package org.rubis.lab;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --out}: where a lab command keeps its runs, one directory each, with the command's own default. */
public final class Runs {

    @Option(names = "--out", paramLabel = "DIR", description = "Directory for the runs, one per measurement.")
    Path dir;

    public Runs(String defaultDir) {
        this.dir = Path.of(defaultDir);
    }

    public Path dir() {
        return dir;
    }
}
