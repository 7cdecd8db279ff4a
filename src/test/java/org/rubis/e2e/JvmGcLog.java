package org.rubis.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pauses a child JVM's own unified GC log ({@code -Xlog:gc*:file=gc.log:time,...}) holds: the
 * independent record the client's GC accounting is checked against, written by the JVM's logging
 * rather than through the Java-level notifications the client listens to.
 */
record JvmGcLog(List<Pause> pauses) {

    /** One pause: when it ended (wall clock) and how long it lasted. */
    record Pause(long endEpochMs, double ms) {}

    // [2026-11-25T01:59:47.282+0000][20.923s][info][gc             ] GC(94) Pause Full (Allocation Failure)
    // 59M->59M(61M) 138.702ms
    private static final Pattern PAUSE =
            Pattern.compile("^\\[([^\\]]+)\\]\\[[^\\]]+\\]\\[info\\]\\[gc\\s*\\] GC\\(\\d+\\) Pause .* ([0-9.]+)ms$");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

    static JvmGcLog read(Path gcLog) throws IOException {
        List<Pause> out = new ArrayList<>();
        for (String line : Files.readAllLines(gcLog)) {
            Matcher m = PAUSE.matcher(line);
            if (m.matches()) {
                out.add(new Pause(
                        OffsetDateTime.parse(m.group(1), TIME).toInstant().toEpochMilli(),
                        Double.parseDouble(m.group(2))));
            }
        }
        return new JvmGcLog(List.copyOf(out));
    }

    /** The pauses that ended from {@code fromEpochMs} to {@code toEpochMs}, both included. */
    List<Pause> endingWithin(long fromEpochMs, long toEpochMs) {
        return pauses.stream()
                .filter(p -> p.endEpochMs() >= fromEpochMs && p.endEpochMs() <= toEpochMs)
                .toList();
    }
}
