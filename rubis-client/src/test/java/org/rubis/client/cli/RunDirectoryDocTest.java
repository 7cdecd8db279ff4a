package org.rubis.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.rubis.format.run.Columns;
import org.rubis.server.truth.GroundTruth;

/**
 * docs/RUN-DIRECTORY.md against the writers' own column lists (rubis-format's Columns, the embedded server's
 * headers): every column is documented, in the section of its file, in the order it is written, and each file is
 * described once. A column added to a writer without the doc, or a doc that lists columns in another order than
 * the file (as client-health.csv's second description did with open_fds), fails here.
 */
class RunDirectoryDocTest {

    private static final String DOC = read(Path.of("..", "docs", "RUN-DIRECTORY.md"));

    @Test
    void everyClientColumnIsDocumentedInItsFilesSectionInOrder() {
        assertInOrder("requests.csv", section("## requests.csv (client)"), Columns.REQUESTS);
        assertInOrder("sessions.csv", section("## sessions.csv (client)"), Columns.SESSIONS);
        assertInOrder("client-health.csv", section("## client-health.csv (client)"), Columns.CLIENT_HEALTH);
        assertInOrder("client-gc.csv", section("## client-gc.csv"), Columns.CLIENT_GC);
        assertInOrder("probe.csv", section("## probe.csv"), Columns.PROBE);
    }

    @Test
    void everyServerColumnIsDocumentedInOrder() {
        String server = section("## server/");
        String requests = bullet(server, "- `requests.csv`:");
        assertInOrder("server/requests.csv", requests, Arrays.asList(GroundTruth.REQUESTS_HEADER.split(",")));
        assertTrue(
                Arrays.asList(GroundTruth.REQUESTS_HEADER.split(",")).containsAll(Columns.SERVER_REQUESTS),
                "the reader's columns are written");
        assertInOrder(
                "server/connections.csv",
                bullet(server, "- `connections.csv`:"),
                Arrays.asList(GroundTruth.CONNECTIONS_HEADER.split(",")));
    }

    @Test
    void eachFileIsDescribedOnce() {
        for (String heading :
                List.of("requests.csv", "sessions.csv", "client-health.csv", "client-gc.csv", "probe.csv")) {
            Matcher m = Pattern.compile("(?m)^## " + Pattern.quote(heading)).matcher(DOC);
            int n = 0;
            while (m.find()) {
                n++;
            }
            assertEquals(1, n, "headings naming " + heading);
        }
    }

    /** The columns, each in backquotes, appear in this order within {@code text}. */
    private static void assertInOrder(String file, String text, List<String> columns) {
        int at = 0;
        for (String c : columns) {
            int k = nameIn(text, c, at);
            assertTrue(
                    k >= 0,
                    file + ": column " + c + " not documented after position " + at + " of its section:\n" + text);
            at = k + c.length();
        }
    }

    /** Where {@code name} appears as a whole column name (between backquotes, commas, spaces) at or after {@code from}. */
    private static int nameIn(String text, String name, int from) {
        Matcher m = Pattern.compile("(?<![A-Za-z0-9_])" + Pattern.quote(name) + "(?![A-Za-z0-9_])")
                .matcher(text);
        return m.find(from) ? m.start() : -1;
    }

    private static String section(String heading) {
        int i = DOC.indexOf("\n" + heading);
        assertTrue(i >= 0, "docs/RUN-DIRECTORY.md has no section " + heading);
        int end = DOC.indexOf("\n## ", i + 1);
        return DOC.substring(i, end < 0 ? DOC.length() : end);
    }

    private static String bullet(String section, String start) {
        int i = section.indexOf(start);
        assertTrue(i >= 0, "no " + start + " in " + section);
        int end = section.indexOf("\n- ", i + 1);
        return section.substring(i, end < 0 ? section.length() : end);
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
