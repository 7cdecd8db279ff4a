package org.rubis.format.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/RUN-DIRECTORY.md and the records name the same summary.json keys: every component of {@link SummaryJson}'s
 * records is documented in the page's summary.json sections, and every key those sections name is a component.
 */
class DocumentedKeysTest {

    /** The page's sections that describe summary.json's keys (server/ and client-gc.csv: the copied stats and GC). */
    private static final Pattern SUMMARY_SECTIONS = Pattern.compile(
            "## (summary\\.json|A merged run|end-of-run-stall|heap-histogram|wire\\.csv|server/|client-gc\\.csv).*");

    /**
     * Words in backticks there with an underscore that are not keys: a map's keys (thread roles, warm-up paths, the
     * wire's groups), settings and diagnostic commands the text refers to.
     */
    private static final Set<String> NOT_KEYS = Set.of(
            "event_loops",
            "log_writer",
            "ended_threads",
            "reference_probe",
            "send_side",
            "receive_side",
            "class_histogram",
            "client_assertions",
            "workload_max_error_pages_without_think",
            "end_epoch_ms",
            "duration_ms",
            "heap_after_bytes",
            "connection_id",
            "arrival_epoch_ns",
            "completion_epoch_ns",
            "service_ns",
            "open_epoch_ns",
            "close_epoch_ns",
            "closed_by",
            "database_regions_file",
            "database_categories_file",
            "idle_timeout",
            "bad_request",
            "tls_error");

    @Test
    void everyKeyOfTheRecordsIsDocumentedAndEveryDocumentedKeyIsInTheRecords() throws IOException {
        Set<String> documented = documentedKeys();
        Set<String> components = new TreeSet<>();
        collect(SummaryJson.class, components, new HashSet<>());
        Set<String> undocumented = new TreeSet<>(components);
        undocumented.removeAll(documented);
        assertEquals(Set.of(), undocumented, "components docs/RUN-DIRECTORY.md does not name");
        Set<String> missing = documented.stream()
                .filter(k -> k.contains("_") && !NOT_KEYS.contains(k) && !components.contains(k))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of(), missing, "keys docs/RUN-DIRECTORY.md names that no record holds");
    }

    /** Every identifier in backticks in the summary.json sections (lists and paths split into their words). */
    private static Set<String> documentedKeys() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "RUN-DIRECTORY.md"));
        StringBuilder sections = new StringBuilder();
        for (String section : doc.split("\n(?=## )")) {
            if (SUMMARY_SECTIONS.matcher(section).lookingAt()) {
                sections.append(section).append('\n');
            }
        }
        Set<String> keys = new TreeSet<>();
        Matcher m = Pattern.compile("`([^`]+)`").matcher(sections);
        while (m.find()) {
            Arrays.stream(m.group(1).split("[\\s,{}\\[\\]().:]+"))
                    .filter(w -> w.matches("[a-z][a-z0-9_]*"))
                    .forEach(keys::add);
        }
        return keys;
    }

    private static void collect(Type type, Set<String> keys, Set<Class<?>> seen) {
        if (type instanceof ParameterizedType p) {
            for (Type argument : p.getActualTypeArguments()) {
                collect(argument, keys, seen);
            }
        } else if (type instanceof Class<?> c && c.isRecord() && seen.add(c)) {
            for (RecordComponent rc : c.getRecordComponents()) {
                JsonProperty named = rc.getAccessor().getAnnotation(JsonProperty.class);
                keys.add(named != null ? named.value() : snake(rc.getName()));
                collect(rc.getGenericType(), keys, seen);
            }
        }
    }

    private static String snake(String name) {
        return new PropertyNamingStrategies.SnakeCaseStrategy().translate(name);
    }
}
