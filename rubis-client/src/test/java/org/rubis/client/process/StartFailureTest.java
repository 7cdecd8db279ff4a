package org.rubis.client.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.input.ConfigException;

/** A server that fails to start is reported with the line that says why, not the log's last line. */
class StartFailureTest {

    @TempDir
    Path tmp;

    @Test
    void theCauseIsPickedOutOfTheLog() {
        assertEquals(
                "The Java thread stack size specified is too small. Specify at least 136k",
                StartFailure.cause(
                        List.of(
                                "",
                                "The Java thread stack size specified is too small. Specify at least 136k",
                                "Error: Could not create the Java Virtual Machine.",
                                "Error: A fatal exception has occurred. Program will exit."),
                        "rubis-server: "));
        assertEquals(
                "Too small maximum heap",
                StartFailure.cause(
                        List.of("Error occurred during initialization of VM", "Too small maximum heap"),
                        "rubis-server: "));
        assertEquals(
                "java.io.IOException: disk gone",
                StartFailure.cause(
                        List.of(
                                "Exception in thread \"main\" java.lang.IllegalStateException: x",
                                "\tat a.B.c(B.java:1)",
                                "Caused by: java.io.UncheckedIOException: y",
                                "\tat a.B.d(B.java:2)",
                                "Caused by: java.io.IOException: disk gone",
                                "\t... 4 more"),
                        "rubis-server: "));
        assertEquals(
                "rubis-server: cannot listen on 127.0.0.1:80",
                StartFailure.cause(
                        List.of(
                                "WARNING: something",
                                "rubis-server: cannot listen on " + "127.0.0.1:80",
                                "rubis-server: parent process gone; stopping"),
                        "rubis-server: "));
        assertEquals("(no output)", StartFailure.cause(List.of(), "rubis-server: "));
    }

    /** A real start: the JVM refuses the stack size and ends its log with its boilerplate; the error quotes the refusal. */
    @Test
    void aRealFailedStartQuotesTheCause() {
        ClientConfig c = ConfigLoader.load(
                (Path) null, Map.of("server_java_options", "-Xss100k", "workload_session_run_time_in_ms", "1000"));
        String m = assertThrows(
                        ConfigException.class,
                        () -> EmbeddedServerProcess.start(c, c.regionsFile(), c.categoriesFile(), tmp.resolve("s")))
                .getMessage();
        assertTrue(
                m.startsWith(
                        "the embedded server exited with status 1 before it was ready: The Java thread stack size specified is too small"),
                m);
    }
}
