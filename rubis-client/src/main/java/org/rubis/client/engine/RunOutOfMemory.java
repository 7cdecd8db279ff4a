package org.rubis.client.engine;

import java.nio.file.Path;
import org.rubis.format.run.RunFiles;

/** The run ran out of heap so badly that only a minimal summary could be written. */
@SuppressWarnings("serial") // an exception, Serializable only by inheritance: nothing serialises it
public final class RunOutOfMemory extends RuntimeException {
    public RunOutOfMemory(Path dir) {
        super(
                "the client ran out of memory (heap); logs are complete, " + RunFiles.summaryJson(dir)
                        + " holds the essentials",
                null,
                false,
                false);
    }
}
