package org.rubis.client.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.Source;

/**
 * A Java properties file read with line numbers kept, so an error can say "rubis.properties:12".
 * Supports the subset real rubis.properties files use: {@code key = value}, {@code key: value},
 * {@code #} and {@code !} comments, and backslash line continuation. Values are trimmed.
 */
public final class PropertiesFile {

    /** One entry and the line it was read from (0 when it came from the command line). */
    public record Entry(String key, String value, int line) {}

    private final Source source;
    private final Map<String, Entry> entries;
    private final List<String> duplicates;

    private PropertiesFile(Source source, Map<String, Entry> entries, List<String> duplicates) {
        this.source = source;
        this.entries = Collections.unmodifiableMap(entries);
        this.duplicates = List.copyOf(duplicates);
    }

    public static PropertiesFile read(Source source) {
        List<String> lines = source.readLines();
        Map<String, Entry> entries = new LinkedHashMap<>();
        List<String> duplicates = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            int lineNo = i + 1;
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("!")) {
                continue;
            }
            StringBuilder logical = new StringBuilder();
            while (line.endsWith("\\") && !line.endsWith("\\\\") && i + 1 < lines.size()) {
                logical.append(line, 0, line.length() - 1);
                line = lines.get(++i).strip();
            }
            logical.append(line);
            String text = logical.toString();
            int sep = separatorIndex(text);
            String key = (sep < 0 ? text : text.substring(0, sep)).strip();
            String value = sep < 0 ? "" : text.substring(sep + 1).strip();
            if (key.isEmpty()) {
                throw new ConfigException(
                        source.displayName() + ":" + lineNo + ": a value without a key; expected key = value");
            }
            Entry previous = entries.put(key, new Entry(key, value, lineNo));
            if (previous != null) {
                duplicates.add(source.displayName() + ":" + lineNo + ": " + key + " is set again (first at line "
                        + previous.line() + "); the last value, \"" + value + "\", wins");
            }
        }
        return new PropertiesFile(source, entries, duplicates);
    }

    private static int separatorIndex(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '=' || c == ':') {
                return i;
            }
            if (Character.isWhitespace(c)) {
                // "key value" form: the separator is the first non-space after the key, or the space itself
                int j = i;
                while (j < text.length() && Character.isWhitespace(text.charAt(j))) {
                    j++;
                }
                if (j < text.length() && (text.charAt(j) == '=' || text.charAt(j) == ':')) {
                    return j;
                }
                return i;
            }
        }
        return -1;
    }

    public Source source() {
        return source;
    }

    /** One warning per key set twice, naming both lines. */
    public List<String> duplicates() {
        return duplicates;
    }

    public Map<String, Entry> entries() {
        return entries;
    }
}
