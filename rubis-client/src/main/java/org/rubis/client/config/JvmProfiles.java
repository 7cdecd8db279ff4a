package org.rubis.client.config;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.Source;

/**
 * Named sets of JVM flags ({@code rubis-properties/jvm-profiles.properties}, plus an optional user
 * file), so that a pitfall of the paper (64 MB heap, no JIT) is one switch away.
 */
public final class JvmProfiles {

    public static final String FILE = "jvm-profiles.properties";

    private final Map<String, String> profiles;
    private final List<String> sources;

    private JvmProfiles(Map<String, String> profiles, List<String> sources) {
        this.profiles = profiles;
        this.sources = sources;
    }

    /** The packaged profiles, overridden and extended by {@code userFile} when given. */
    public static JvmProfiles load(Path userFile) {
        Map<String, String> m = new LinkedHashMap<>();
        Source packaged = Source.classpath(FILE);
        PropertiesFile.read(packaged).entries().forEach((k, e) -> m.put(k, checked(packaged, e)));
        if (userFile == null) {
            return new JvmProfiles(m, List.of(packaged.displayName()));
        }
        Source user = Source.file(userFile);
        PropertiesFile.read(user).entries().forEach((k, e) -> m.put(k, checked(user, e)));
        return new JvmProfiles(m, List.of(packaged.displayName(), userFile.toString()));
    }

    /** The profile's flags once they pass {@link JvmOptions}: an error names file:line and the flag. */
    private static String checked(Source src, PropertiesFile.Entry e) {
        return JvmOptions.parse(e.value(), src.displayName() + ":" + e.line() + ": profile " + e.key())
                .text();
    }

    /** The flags of {@code name}, split on white space. */
    public List<String> flags(String name) {
        String f = profiles.get(name);
        if (f == null) {
            throw new ConfigException("--jvm-profile " + name + ": unknown profile; known: "
                    + String.join(", ", profiles.keySet()) + " (from " + String.join(", ", sources) + ")");
        }
        return f.isBlank() ? List.of() : List.of(f.strip().split("\\s+"));
    }

    /** "name (flags)", or for a profile without flags "name (no flags: the JVM's own defaults)", never "name ()". */
    public static String describe(String name, List<String> flags) {
        return name + " (" + (flags.isEmpty() ? "no flags: the JVM's own defaults" : String.join(" ", flags)) + ")";
    }

    public Map<String, String> all() {
        return Map.copyOf(profiles);
    }
}
