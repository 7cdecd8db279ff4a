package org.rubis.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Bad options of rubis-server.jar: one line saying what to change, no stack trace. */
class ServerMainTest {

    private static String[] run(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cl = ServerMain.commandLine();
        cl.setErr(new PrintWriter(err, true));
        int status = cl.execute(args);
        return new String[] {String.valueOf(status), err.toString()};
    }

    @Test
    void unknownModel() {
        String[] r = run("--model", "threaded", "--port", "0", "--size", "0.005");
        assertEquals("1", r[0]);
        assertEquals("rubis-server: --model threaded: expected event or prefork", r[1].strip());
    }

    @Test
    void portInUse() throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String[] r = run("--port", String.valueOf(busy.getLocalPort()), "--size", "0.005");
            assertEquals("1", r[0]);
            assertTrue(
                    r[1].strip().startsWith("rubis-server: cannot listen on 127.0.0.1:" + busy.getLocalPort()), r[1]);
            assertTrue(r[1].contains("choose another --port, or 0 for a free one"), r[1]);
            assertFalse(r[1].contains("\tat "), r[1]);
        }
    }

    @Test
    void badValueIsOneLineNamingTheOptionAndWhatIsAccepted() {
        String[] r = run("--port", "abc");
        assertEquals("2", r[0]);
        assertEquals(1, r[1].strip().lines().count(), r[1]);
        assertEquals(
                "error: --port: 'abc' is not an int, accepted: an integer (default 8080); see rubis-server --help",
                r[1].strip());
    }

    @Test
    void unknownOptionIsOneLineWithASuggestion() {
        String[] r = run("--por", "8080");
        assertEquals("2", r[0]);
        assertEquals(1, r[1].strip().lines().count(), r[1]);
        assertTrue(r[1].startsWith("error: --por: unknown option, did you mean --port"), r[1]);
        assertTrue(r[1].strip().endsWith("; see rubis-server --help"), r[1]);
    }

    @Test
    void helpShowsEveryDefaultAndRealLabels() {
        PrintStream err = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        String help;
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            help = ServerMain.commandLine().getUsageMessage(CommandLine.Help.Ansi.OFF);
        } finally {
            System.setErr(err);
        }
        // A lone '%' in a description is a format specifier to picocli: it warns on every --help and prints the text
        // raw.
        assertEquals("", warnings.toString(StandardCharsets.UTF_8), "picocli formats every description");
        for (String s : new String[] {
            "--keepalive-ms=MS",
            "Default: 5000",
            "--workers=N",
            "Default: 15",
            "--max-workers=N",
            "Default: 150",
            "--model=event|prefork",
            "Default: event",
            "--port=PORT",
            "Default: 8080"
        }) {
            assertTrue(help.contains(s), s + " missing in\n" + help);
        }
        assertFalse(help.contains("<port>"), help);
        assertFalse(help.contains("Default: null") || help.contains("Default: {}"), help);
    }
}
