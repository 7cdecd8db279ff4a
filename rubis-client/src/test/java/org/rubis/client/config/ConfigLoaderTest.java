package org.rubis.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.TestFiles;
import org.rubis.client.input.ConfigException;
import org.rubis.client.workload.TransitionMode;

class ConfigLoaderTest {

    @TempDir
    Path tmp;

    /** A properties file of the original client (old path-key spellings, rsh commands, absolute-less paths). */
    static final String ORIGINAL = """
            # RUBiS 1.4.3 client configuration
            httpd_hostname = 127.0.0.1
            httpd_port = 8081
            httpd_use_version = PHP
            httpd_php_html_path = /PHP
            httpd_php_script_path = /PHP
            workload_remote_client_nodes =
            workload_remote_client_command = /usr/local/java/bin/java -classpath RUBiS/Client/ edu.rice.rubis.client.ClientEmulator
            workload_number_of_clients_per_node = 240
            workload_transition_table = default_transitions.txt
            workload_number_of_columns = 27
            workload_number_of_rows = 29
            workload_maximum_number_of_transitions = 1000
            workload_number_of_items_per_page = 20
            workload_use_tpcw_think_time = yes
            workload_up_ramp_time_in_ms = 150000
            workload_up_ramp_slowdown_factor = 2
            workload_session_run_time_in_ms = 900000
            workload_down_ramp_time_in_ms = 60000
            workload_down_ramp_slowdown_factor = 3
            database_server = sci21
            database_number_of_users = 1000000
            database_regions_file = ebay_regions.txt
            database_categories_file = ebay_simple_categories.txt
            database_number_of_old_items = 1000000
            database_percentage_of_unique_items = 80
            database_percentage_of_items_with_reserve_price = 40
            database_percentage_of_buy_now_items = 10
            database_max_quantity_for_multiple_items = 10
            database_item_description_length = 8192
            database_max_bids_per_item = 20
            database_max_comments_per_user = 20
            database_comment_max_length = 2048
            monitoring_debug_level = 0
            monitoring_program = /usr/bin/sar
            monitoring_options = -n DEV -n SOCK -rubwFB
            monitoring_sampling_in_seconds = 1
            monitoring_rsh = /usr/bin/rsh
            monitoring_gnuplot_terminal = jpeg
            """;

    @BeforeEach
    void copyData() throws Exception {
        for (String f : new String[] {
            "default_transitions.txt", "browse_only_transitions.txt", "ebay_regions.txt", "ebay_simple_categories.txt"
        }) {
            Files.copy(TestFiles.propertiesDir().resolve(f), tmp.resolve(f));
        }
    }

    private Path file(String content) {
        return TestFiles.write(tmp, "rubis.properties", content);
    }

    private static String error(TestConfig config) {
        return assertThrows(ConfigException.class, config::load).getMessage();
    }

    private String error(String content, Map<String, String> overrides) {
        Path p = file(content);
        return assertThrows(ConfigException.class, () -> ConfigLoader.load(p, overrides))
                .getMessage();
    }

    /** A properties file is read as UTF-8 (a Latin-1 reading made tablé.txt a name no file has). */
    @Test
    void aUtf8PathInAPropertiesFileNamesItsFile() throws Exception {
        Files.copy(tmp.resolve("browse_only_transitions.txt"), tmp.resolve("tablé.txt"));
        ClientConfig c = ConfigLoader.load(
                file(ORIGINAL.replace(
                        "workload_transition_table = default_transitions.txt",
                        "workload_transition_table = tablé.txt")),
                Map.of());
        ClientConfig browse = ConfigLoader.load(
                file(ORIGINAL.replace(
                        "workload_transition_table = default_transitions.txt",
                        "workload_transition_table = browse_only_transitions.txt")),
                Map.of());
        assertEquals(browse.workload().table().name(), c.workload().table().name(), "the table in tablé.txt");
    }

    @Test
    void anOriginalFileLoadsUnchangedAndNothingFromItIsExecuted() {
        ClientConfig c = ConfigLoader.load(file(ORIGINAL), Map.of());
        assertEquals("http://127.0.0.1:8081", c.target());
        assertEquals(240, c.users());
        assertEquals(150_000, c.upRampMs());
        assertEquals(900_000, c.runMs());
        assertEquals(3.0, c.downRampFactor());
        assertEquals("/PHP/ViewItem.php", c.workload().layout().script("ViewItem"));
        assertEquals(1_000_000, c.workload().policy().users());
        assertEquals(TransitionMode.COMPATIBLE, c.workload().mode());
        assertEquals(BackendKind.LEGACY, c.execution().backend());
        assertTrue(
                c.warnings().stream()
                        .anyMatch(w -> w.contains("workload_remote_client_command") && w.contains("never executed")),
                c.warnings().toString());
        assertTrue(c.warnings().stream().anyMatch(w -> w.contains("monitoring_rsh") && w.contains("never executed")));
        // One short line pointing at `validate` (which lists the columns), not a 700-character list.
        assertTrue(
                c.warnings().stream()
                        .anyMatch(w -> w.contains("23 of 27 columns do not sum to 1 (")
                                && w.endsWith("rubis-client validate lists them")
                                && w.length() < 200),
                c.warnings().toString());
        assertTrue(
                c.warnings().stream().noneMatch(w -> w.contains("unknown key")),
                c.warnings().toString());
    }

    @Test
    void packagedDefaultsLoadFromTheClasspath() {
        ClientConfig c = ConfigLoader.load((Path) null, Map.of());
        assertEquals("embedded", c.target());
        assertTrue(c.source().startsWith("classpath:"));
        assertEquals(62, c.workload().data().regions().size());
        assertEquals(20, c.workload().data().categories().size());
    }

    @Test
    void overridesWinAndUnknownKeysWarn() {
        ClientConfig c = TestConfig.file(file(ORIGINAL + "workload_trasition_mode = normalize\n"))
                .set(Keys.USERS, 7)
                .set(Keys.TRANSITION_MODE, TransitionMode.NORMALIZE)
                .set(Keys.SEED, 42L)
                .load();
        assertEquals(7, c.users());
        assertEquals(TransitionMode.NORMALIZE, c.workload().mode());
        assertEquals(42, c.seed());
        assertTrue(
                c.warnings().stream()
                        .anyMatch(w -> w.endsWith("/rubis.properties:40: workload_trasition_mode: unknown key, ignored "
                                + "(check its spelling; did you mean workload_transition_mode?)")),
                c.warnings().toString());
    }

    @Test
    void nonNumberNamesFileLineKeyAndExpectedForm() {
        String m = error(
                ORIGINAL.replace("workload_up_ramp_time_in_ms = 150000", "workload_up_ramp_time_in_ms = 2.5 minutes"),
                Map.of());
        assertTrue(
                m.startsWith(
                        tmp.resolve("rubis.properties")
                                + ":16: workload_up_ramp_time_in_ms = \"2.5 minutes\": not a whole number; expected a whole number of milliseconds"),
                m);
    }

    @Test
    void negativeTime() {
        String m = error(
                ORIGINAL.replace("workload_down_ramp_time_in_ms = 60000", "workload_down_ramp_time_in_ms = -5"),
                Map.of());
        assertTrue(
                m.contains(":19: workload_down_ramp_time_in_ms = \"-5\": negative; expected at least 0 milliseconds"),
                m);
    }

    @Test
    void missingRequiredValue() {
        String m = error(ORIGINAL.replace("workload_session_run_time_in_ms = 900000\n", ""), Map.of());
        assertTrue(
                m.contains(
                        "required key workload_session_run_time_in_ms is missing; add a line workload_session_run_time_in_ms = "),
                m);
    }

    @Test
    void missingTransitionTableFile() {
        String m = error(
                ORIGINAL.replace(
                        "workload_transition_table = default_transitions.txt",
                        "workload_transition_table = tables/nothere.txt"),
                Map.of());
        assertTrue(m.contains(":10: workload_transition_table = \"tables/nothere.txt\": file not found"), m);
        assertTrue(m.contains("resolved against the properties file's directory"), m);
    }

    @Test
    void badChoiceAndBadOverride() {
        String m = error(TestConfig.file(file(ORIGINAL)).text(Keys.BACKEND, "magic"));
        assertTrue(
                m.equals(
                        "command line: -Dclient_backend = \"magic\": unknown value; expected one of legacy|pooled|dedicated|netty|kernel"),
                m);
        m = error(TestConfig.file(file(ORIGINAL)).text(Keys.TPCW_THINK_TIME, "perhaps"));
        assertTrue(m.contains("workload_use_tpcw_think_time = \"perhaps\": not a yes/no value; expected yes or no"), m);
        m = error(TestConfig.file(file(ORIGINAL)).text(Keys.TARGET, "ftp:/x"));
        assertTrue(m.contains("expected embedded or a URL such as http://127.0.0.1:8080"), m);
    }

    @Test
    void percentagesOutOfRange() {
        String m = error(
                ORIGINAL.replace(
                        "database_percentage_of_buy_now_items = 10", "database_percentage_of_buy_now_items = 150"),
                Map.of());
        assertTrue(
                m.contains(
                        "database_percentage_of_buy_now_items = \"150\": out of range; expected a percentage 0..100"),
                m);
    }

    @Test
    void malformedCategoriesFile() throws Exception {
        Files.writeString(tmp.resolve("ebay_simple_categories.txt"), "Books (12)\nToys and no count\n");
        String m = error(ORIGINAL, Map.of());
        assertTrue(
                m.contains(
                        "ebay_simple_categories.txt:2: \"Toys and no count\" is not a category line; expected Name (number of items)"),
                m);
    }

    @Test
    void measurementOptionsLoadAndWireTimesNeedTheCapture() {
        ClientConfig c = TestConfig.file(file(ORIGINAL))
                .set(Keys.CAPTURE, true)
                .set(Keys.PROBE, true)
                .set(Keys.PUBLISHED_TIMES, "wire")
                .set(Keys.BUSY_POLL, true)
                .load();
        assertTrue(c.measurement().capture()
                && c.measurement().probe()
                && c.execution().busyPoll());
        assertEquals(PublishedTimes.WIRE, c.measurement().publishedTimes());
        assertEquals(5.0, c.measurement().probeRate());
        ClientConfig d = ConfigLoader.load(file(ORIGINAL), Map.of());
        assertTrue(!d.measurement().capture()
                && !d.measurement().probe()
                && !d.execution().busyPoll());
        assertEquals(PublishedTimes.CLIENT, d.measurement().publishedTimes());
        String m = error(TestConfig.file(file(ORIGINAL)).text(Keys.PUBLISHED_TIMES, "wire"));
        assertTrue(m.contains("client_published_times") && m.contains("--capture"), m);
        String bad = error(TestConfig.file(file(ORIGINAL)).text(Keys.PUBLISHED_TIMES, "server"));
        assertTrue(bad.contains("client|wire"), bad);
    }
}
