package org.rubis.client.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import org.rubis.client.TestFiles;
import org.rubis.client.arrival.FileArrivals;
import org.rubis.client.arrival.Schedules;
import org.rubis.client.cli.RunCommandAccess;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.config.JvmOptions;
import org.rubis.client.config.JvmProfiles;
import org.rubis.client.config.PropertiesFile;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.Source;
import org.rubis.client.workload.TransitionTable;

/**
 * Every parser a user feeds, fuzzed: whatever the bytes, a parser either accepts them or throws
 * {@link ConfigException} (a one-line user error); any other exception (NullPointerException,
 * NumberFormatException, ArrayIndexOutOfBoundsException, ...) fails the test. In the normal suite
 * Jazzer replays the inputs in {@code ParserFuzzTestInputs/<method>/}; with {@code JAZZER_FUZZ=1}
 * it fuzzes (docs/FAULTS.md).
 */
class ParserFuzzTest {

    private static final Path DIR = tempDir();

    private static Path tempDir() {
        try {
            Path d = Files.createTempDirectory("rubis-fuzz");
            for (String f :
                    new String[] {"default_transitions.txt", "ebay_regions.txt", "ebay_simple_categories.txt"}) {
                Files.copy(TestFiles.propertiesDir().resolve(f), d.resolve(f), StandardCopyOption.REPLACE_EXISTING);
            }
            d.toFile().deleteOnExit();
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path write(String name, byte[] data) {
        try {
            return Files.write(DIR.resolve(name), data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code parse}; only a ConfigException with a one-line message may escape it. */
    private static void onlyConfigErrors(Runnable parse) {
        try {
            parse.run();
        } catch (ConfigException e) {
            if (e.getMessage() == null || e.getMessage().isBlank()) {
                throw new AssertionError("a ConfigException without a message", e);
            }
        }
    }

    @FuzzTest(maxDuration = "90s")
    void propertiesFile(byte[] data) {
        Path p = write("fuzz.properties", data);
        onlyConfigErrors(() -> PropertiesFile.read(Source.file(p)));
    }

    /** The whole configuration: a fuzzed properties file loaded with the shipped data beside it. */
    @FuzzTest(maxDuration = "90s")
    void configuration(byte[] data) {
        Path p = write("rubis.properties", data);
        onlyConfigErrors(() -> ConfigLoader.load(p, Map.of()));
    }

    @FuzzTest(maxDuration = "90s")
    void transitionTable(byte[] data) {
        Path p = write("table.txt", data);
        onlyConfigErrors(() -> TransitionTable.parse(Source.file(p), 27, 29));
    }

    @FuzzTest(maxDuration = "90s")
    void arrivalFile(byte[] data) {
        Path p = write("ia.txt", data);
        onlyConfigErrors(() -> new FileArrivals(p));
    }

    @FuzzTest(maxDuration = "90s")
    void rateSchedule(byte[] data) {
        Path p = write("schedule.txt", data);
        onlyConfigErrors(() -> Schedules.arrivals(p, true, 1));
    }

    @FuzzTest(maxDuration = "90s")
    void jvmOptions(byte[] data) {
        String text = new String(data, StandardCharsets.UTF_8);
        onlyConfigErrors(() -> {
            JvmOptions o = JvmOptions.parse(text, "fuzz");
            for (String f : o.flags()) {
                boolean runsOrLoads = f.startsWith("-XX:OnError")
                        || f.startsWith("-XX:OnOutOfMemoryError")
                        || f.startsWith("-XX:Flags")
                        || f.startsWith("-XX:VMOptionsFile")
                        || f.startsWith("-javaagent")
                        || f.startsWith("-agent")
                        || f.startsWith("@")
                        || f.startsWith("-D")
                                && !JvmOptions.PROPERTIES.contains(
                                        f.substring(2, f.indexOf('=') < 0 ? f.length() : f.indexOf('=')))
                        || !f.startsWith("-X") && !f.startsWith("-D") && !f.equals("-server");
                if (runsOrLoads) {
                    throw new AssertionError("a flag off the allow-list passed: " + f);
                }
            }
        });
    }

    @FuzzTest(maxDuration = "90s")
    void jvmProfiles(byte[] data) {
        Path p = write("profiles.properties", data);
        onlyConfigErrors(() -> JvmProfiles.load(p));
    }

    @FuzzTest(maxDuration = "90s")
    void duration(byte[] data) {
        String text = new String(data, StandardCharsets.UTF_8);
        onlyConfigErrors(() -> RunCommandAccess.millis("--duration", text));
    }
}
