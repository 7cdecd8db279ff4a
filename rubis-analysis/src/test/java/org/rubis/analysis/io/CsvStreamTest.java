package org.rubis.analysis.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The byte reader's fields, numbers and bad lines, and its reading thread stopping with the consumer. */
class CsvStreamTest {

    @TempDir
    Path tmp;

    @Test
    void fieldsAndNumbersAreReadFromTheBytes() throws IOException {
        Path f = write("a,n\n"
                + "\"x,\"\"y\"\" é\",9223372036854775807\n"
                + "plain,-9223372036854775808\n"
                + "over,9223372036854775808\n"
                + "under,-9223372036854775809\n"
                + "\"open,1\n"
                + "in\"side,2\n"
                + ",0\n");
        CsvStream csv = new CsvStream(f);
        List<String> seen = new ArrayList<>();
        csv.forEach(List.of("a", "n"), List.of("n"), r -> seen.add(r.get("a") + "|" + r.getLong("n") + "|" + r.line()));
        assertEquals(List.of("x,\"y\" é|9223372036854775807|2", "plain|-9223372036854775808|3", "|0|8"), seen);
        assertEquals(4, csv.badLines(), "past a long either way, an unterminated quote, a quote inside a field");
        assertEquals(4, csv.firstBadLine());
    }

    @Test
    void aConsumersFailureStopsTheReaderAndReachesTheCaller() throws IOException {
        StringBuilder b = new StringBuilder("n\n");
        for (int i = 0; i < 100_000; i++) {
            b.append(i).append('\n');
        }
        CsvStream csv = new CsvStream(write(b.toString()));
        long[] consumed = {0};
        AnalysisException e = assertThrows(
                AnalysisException.class,
                () -> csv.forEach(List.of("n"), r -> {
                    if (++consumed[0] == 5_000) {
                        throw new AnalysisException("stop at " + r.getLong("n"));
                    }
                }));
        assertEquals("stop at 4999", e.getMessage());
        assertEquals(5_000, consumed[0], "no row handed on after the failure");
        assertEquals(
                0,
                Thread.getAllStackTraces().keySet().stream()
                        .filter(t -> t.getName().equals("csv-reader"))
                        .count(),
                "the reading thread has ended");
    }

    private Path write(String text) throws IOException {
        Path f = tmp.resolve("f.csv");
        Files.writeString(f, text, StandardCharsets.UTF_8);
        return f;
    }
}
