package org.rubis.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.TestFiles;
import org.rubis.client.arrival.FileArrivals;
import org.rubis.client.arrival.Schedules;
import org.rubis.client.cli.RunCommandAccess;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.Source;
import org.rubis.client.workload.TransitionTable;

/** Issue 13's bad input that was accepted: each is now a one-line error or a warning. */
class BadInputTest {

    @TempDir
    Path tmp;

    static final String BASE = """
            workload_transition_table = t.txt
            workload_number_of_clients_per_node = 3
            workload_session_run_time_in_ms = 1000
            database_number_of_users = 100
            """;

    @BeforeEach
    void copyData() throws Exception {
        for (String f : new String[] {"ebay_regions.txt", "ebay_simple_categories.txt"}) {
            Files.copy(TestFiles.propertiesDir().resolve(f), tmp.resolve(f));
        }
        Files.copy(TestFiles.propertiesDir().resolve("default_transitions.txt"), tmp.resolve("t.txt"));
    }

    private ClientConfig load(String content, Map<String, String> overrides) {
        return ConfigLoader.load(TestFiles.write(tmp, "rubis.properties", content), overrides);
    }

    private String error(String content, Map<String, String> overrides) {
        String m = assertThrows(ConfigException.class, () -> load(content, overrides))
                .getMessage();
        assertEquals(-1, m.indexOf('\n'), "one line: " + m);
        return m;
    }

    /**
     * The kernel backend stamps TCP segments: an https target (or the embedded server over TLS) is refused in one line;
     * kernel times need the kernel backend; and they are its default.
     */
    @Test
    void kernelTimesNeedTheKernelBackendOverHttp() {
        String https = error(BASE + "client_backend = kernel\nclient_target = https://127.0.0.1:8443\n", Map.of());
        assertTrue(https.contains("client_backend = \"kernel\": https is not supported"), https);
        String tls = error(BASE + "client_backend = kernel\nserver_tls = yes\n", Map.of());
        assertTrue(tls.contains("https is not supported"), tls);
        String times = error(BASE + "client_backend = netty\nclient_published_times = kernel\n", Map.of());
        assertTrue(times.contains("kernel times come from the kernel backend"), times);
        assertEquals(
                PublishedTimes.KERNEL,
                load(BASE + "client_backend = kernel\n", Map.of()).measurement().publishedTimes());
        assertEquals(
                PublishedTimes.CLIENT,
                load(BASE + "client_backend = kernel\nclient_published_times = client\n", Map.of())
                        .measurement()
                        .publishedTimes());
    }

    private void editTable(int lineNo, String from, String to) throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(tmp.resolve("t.txt"), StandardCharsets.ISO_8859_1));
        lines.set(lineNo - 1, lines.get(lineNo - 1).replaceFirst(from, to));
        Files.write(tmp.resolve("t.txt"), lines, StandardCharsets.ISO_8859_1);
    }

    @Test
    void aNaNNegativeOrInfiniteCellNamesFileLineAndColumn() throws Exception {
        for (String bad : List.of("NaN", "-0.1", "Infinity")) {
            Files.copy(
                    TestFiles.propertiesDir().resolve("default_transitions.txt"),
                    tmp.resolve("t.txt"),
                    StandardCopyOption.REPLACE_EXISTING);
            editTable(7, "\t0\t", "\t" + bad + "\t");
            String m = assertThrows(
                            ConfigException.class,
                            () -> TransitionTable.parse(Source.file(tmp.resolve("t.txt")), 27, 29))
                    .getMessage();
            assertTrue(m.matches(".*t\\.txt:7: column \\d+ = " + Pattern.quote(bad) + " is not a probability.*"), m);
        }
        Files.copy(
                TestFiles.propertiesDir().resolve("default_transitions.txt"),
                tmp.resolve("t.txt"),
                StandardCopyOption.REPLACE_EXISTING);
        List<String> lines = new ArrayList<>(Files.readAllLines(tmp.resolve("t.txt"), StandardCharsets.ISO_8859_1));
        String[] cells = lines.get(6).split("\t", -1);
        cells[28] = "NaN"; // the waiting time
        lines.set(6, String.join("\t", cells));
        Files.write(tmp.resolve("t.txt"), lines, StandardCharsets.ISO_8859_1);
        String m = assertThrows(
                        ConfigException.class, () -> TransitionTable.parse(Source.file(tmp.resolve("t.txt")), 27, 29))
                .getMessage();
        assertTrue(m.contains("t.txt:7: column 29: waiting time NaN"), m);
    }

    @Test
    void aDuplicatedKeyIsWarnedWithBothLines() {
        ClientConfig c = load(BASE + "workload_session_run_time_in_ms = 2000\n", Map.of());
        assertTrue(
                c.warnings().stream()
                        .anyMatch(w -> w.endsWith(
                                "rubis.properties:5: workload_session_run_time_in_ms is set again (first at line 3);"
                                        + " the last value, \"2000\", wins")),
                c.warnings().toString());
        assertEquals(2000, c.runMs());
    }

    @Test
    void aMissingNumberOfClientsIsWarned() {
        ClientConfig c = load(BASE.replace("workload_number_of_clients_per_node = 3\n", ""), Map.of());
        assertTrue(
                c.warnings().stream()
                        .anyMatch(w -> w.contains("workload_number_of_clients_per_node is not set: 1 emulated user")),
                c.warnings().toString());
        assertTrue(load(BASE, Map.of()).warnings().stream().noneMatch(w -> w.contains("clients_per_node")));
    }

    @Test
    void anEndOfSessionRowThatNeverEndsSessionsIsWarned() throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(tmp.resolve("t.txt"), StandardCharsets.ISO_8859_1));
        String[] cells = lines.get(32).split("\t", -1);
        assertTrue(cells[0].startsWith("End of Session"));
        String[] back = lines.get(31).split("\t", -1);
        for (int c = 1; c <= 27; c++) {
            back[c] = String.valueOf(
                    Double.parseDouble(back[c]) + Double.parseDouble(cells[c])); // keep the columns summing to 1
            cells[c] = "0";
        }
        lines.set(31, String.join("\t", back));
        lines.set(32, String.join("\t", cells));
        Files.write(tmp.resolve("t.txt"), lines, StandardCharsets.ISO_8859_1);
        ClientConfig c = load(BASE, Map.of());
        assertTrue(
                c.warnings().stream().anyMatch(w -> w.contains("the End of Session row is all zero")),
                c.warnings().toString());
    }

    @Test
    void durationsCountsAndRatesAreBoundedAtLoad() {
        String m = error(BASE.replace("= 1000", "= 9223372036854775807"), Map.of());
        assertTrue(
                m.endsWith(
                        "rubis.properties:3: workload_session_run_time_in_ms = \"9223372036854775807\": longer than the maximum of 30 days"
                                + " (2592000000 ms); expected a duration in milliseconds up to that"),
                m);
        assertTrue(error(BASE, Map.of("workload_up_ramp_time_in_ms", "99999999999999999999999"))
                .startsWith("command line: -Dworkload_up_ramp_time_in_ms"));
        assertTrue(error(BASE, Map.of("workload_number_of_clients_per_node", "5000000"))
                .contains("more than the maximum of 1000000"));
        assertTrue(error(BASE, Map.of("workload_session_rate", "1e-300"))
                .contains("workload_session_rate = \"1e-300\": out of range"));
        assertTrue(load(BASE, Map.of("workload_session_run_time_in_ms", String.valueOf(Limits.MAX_DURATION_MS)))
                        .runMs()
                == Limits.MAX_DURATION_MS);
        String d = assertThrows(ConfigException.class, () -> RunCommandAccess.millis("--duration", "99999999999999h"))
                .getMessage();
        assertEquals(
                "--duration 99999999999999h: longer than the maximum of 30 days; expected e.g. 60s, 2m, 500ms or 1h",
                d);
        assertEquals(3_600_000L, RunCommandAccess.millis("--duration", "1h"));
    }

    @Test
    void arrivalFilesAndSchedulesAreBounded() {
        Path ia = TestFiles.write(tmp, "ia.txt", "100\n1e300\n");
        String m =
                assertThrows(ConfigException.class, () -> new FileArrivals(ia)).getMessage();
        assertTrue(m.startsWith(ia + ":2: 1e300 ms brings the arrivals past 30 days"), m);
        Path sched = TestFiles.write(tmp, "s.txt", "0 10\n5 1e-300\n");
        m = error(BASE + "workload_arrivals = hybrid\nworkload_rate_schedule_file = " + sched + "\n", Map.of());
        assertTrue(m.startsWith(sched + ":2: a rate of 1.0E-300 is out of range"), m);
        Path late = TestFiles.write(tmp, "late.txt", "0 10\n1e12 5\n");
        assertTrue(assertThrows(ConfigException.class, () -> Schedules.arrivals(late, true, 1))
                .getMessage()
                .startsWith(late + ":2:"));
    }

    @Test
    void theTargetUrlIsValidatedAtLoad() {
        assertTrue(
                error(BASE, Map.of("client_target", "http://127.0.0.1:99999"))
                        .equals(
                                "command line: -Dclient_target = \"http://127.0.0.1:99999\": port 99999 is out of range; expected a TCP port from 1 to 65535"));
        for (String bad : List.of("ftp://127.0.0.1:21", "http://:8080", "127.0.0.1:8080", "http//x")) {
            assertTrue(error(BASE, Map.of("client_target", bad)).contains("not a target"), bad);
        }
        assertEquals(
                "http://127.0.0.1:8080",
                load(BASE, Map.of("client_target", "http://127.0.0.1:8080/")).target());
    }

    /**
     * Think-time products that overflow are refused (they wrapped the intended send instant negative: no think time, status
     * complete); the largest accepted value is exact, and the same bound holds for the ramps' slowdown factors.
     */
    @Test
    void thinkTimeProductsBeyondThirtyDaysAreRefused() {
        double most = Limits.MAX_DURATION_MS / 70_000.0; // TPC-W's longest think time is 70 s
        for (String scale : List.of("1e10", "1e308", String.valueOf(most + 0.001))) {
            assertEquals(
                    tmp.resolve("rubis.properties") + ":5: workload_think_scale = \"" + scale
                            + "\": the longest think time (70 s) times it is beyond the maximum of "
                            + "30 days; expected at most 37028.5714 with this workload",
                    error(BASE + "workload_think_scale = " + scale + "\n", Map.of()));
        }
        assertEquals(
                most - 0.001,
                load(BASE + "workload_think_scale = " + (most - 0.001) + "\n", Map.of())
                        .thinkScale(),
                1e-9);
        String up = error(BASE, Map.of("workload_up_ramp_slowdown_factor", "1e308"));
        assertEquals(
                "command line: -Dworkload_up_ramp_slowdown_factor = \"1e308\": the longest think time (70 s) times it is beyond the "
                        + "maximum of 30 days; expected at most 37028.5714 with this workload",
                up);
        String down =
                error(BASE + "workload_think_scale = 100\n", Map.of("workload_down_ramp_slowdown_factor", "1000"));
        assertTrue(
                down.startsWith(
                        "command line: -Dworkload_down_ramp_slowdown_factor = \"1000\": the longest think time (70 s x think scale 100) "
                                + "times it is beyond the maximum of 30 days; expected at most 370.2857"),
                down);
        // With the option, the option is named, as typed.
        String option = assertThrows(
                        ConfigException.class,
                        () -> ConfigLoader.load(
                                TestFiles.write(tmp, "rubis.properties", BASE),
                                Map.of("workload_think_scale", "1e10"),
                                Map.of("workload_think_scale", new GivenOption("--think-scale", "1e10"))))
                .getMessage();
        assertTrue(
                option.startsWith(
                        "--think-scale 1e10: the longest think time (70 s) times it is beyond the maximum of 30 days"),
                option);
    }

    /** The probe rate has an upper bound: a rate of 1e12 made the probe send back to back on its connection. */
    @Test
    void theProbeRateIsBounded() {
        assertEquals(
                100.0,
                load(BASE + "client_probe_rate = 100\n", Map.of()).measurement().probeRate());
        assertEquals(
                tmp.resolve("rubis.properties")
                        + ":5: client_probe_rate = \"1e12\": above the maximum of 100 requests per second (the probe "
                        + "measures this host's floor at a low rate, on one connection, its load apart from the run's); expected 0.1 to 100",
                error(BASE + "client_probe_rate = 1e12\n", Map.of()));
        assertTrue(error(BASE, Map.of("client_probe_rate", "100.5"))
                .startsWith("command line: -Dclient_probe_rate = \"100.5\": above the maximum"));
    }

    /** The write salt and the target's process names are words of a few characters: anything else is one line naming the key. */
    @Test
    void aBadWriteSaltOrTargetProcessNameIsOneLineNamingTheKey() {
        String salt = error(BASE + "client_write_salt = Bad!salt\n", Map.of());
        assertTrue(salt.contains("rubis.properties:") && salt.contains("client_write_salt"), salt);
        assertTrue(salt.contains("1 to 6 of a-z0-9, or none"), salt);
        assertEquals(
                "abc12",
                load(BASE, Map.of("client_write_salt", "abc12")).workload().writeSalt());
        assertEquals(
                "", load(BASE, Map.of("client_write_salt", "none")).workload().writeSalt());
        assertTrue(load(BASE, Map.of()).workload().writeSalt().matches("[a-z0-9]{5}"));
        String name = error(BASE, Map.of("client_target_processes", "mariadbd,rm -rf"));
        assertTrue(name.contains("client_target_processes") && name.contains("\"rm -rf\" is not a process name"), name);
        String cgroup = error(BASE, Map.of("client_target_processes", "/nonexistent/cgroup"));
        assertTrue(cgroup.contains("is not a cgroup directory"), cgroup);
        assertEquals(
                List.of("mariadbd", "php-cgi"),
                load(BASE, Map.of("client_target_processes", "mariadbd, php-cgi"))
                        .measurement()
                        .targetProcesses()
                        .names());
    }
}
