package org.rubis.client.config;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.Source;

/**
 * Typed, validated access to the values of a properties file plus command-line overrides.
 * Every getter failure is a {@link ConfigException} naming the file, line and key and the form
 * expected, e.g. {@code rubis.properties:12: workload_up_ramp_time_in_ms = "ten": not a whole number}.
 */
public final class Settings {

    private final PropertiesFile file;
    private final Map<String, PropertiesFile.Entry> overrides;
    /** Overrides set by a named option ({@code --duration}) rather than {@code -Dkey=value}, by key. */
    private final Map<String, GivenOption> options;
    /** Every setting read, with its effective value (default included): the canonical form of {@link #sha256}. */
    private final Map<String, String> effective = new TreeMap<>();

    public Settings(PropertiesFile file, Map<String, String> overrides) {
        this(file, overrides, Map.of());
    }

    /** With {@code options}: the overrides that named options set, so that errors name the option. */
    public Settings(PropertiesFile file, Map<String, String> overrides, Map<String, GivenOption> options) {
        this.file = file;
        this.options = Map.copyOf(options);
        Map<String, PropertiesFile.Entry> o = new LinkedHashMap<>();
        overrides.forEach((k, v) -> o.put(k, new PropertiesFile.Entry(k, v == null ? "" : v.strip(), 0)));
        this.overrides = o;
    }

    public PropertiesFile file() {
        return file;
    }

    /** The entry for the first of the given spellings that is set (overrides win over the file). */
    public Optional<PropertiesFile.Entry> entry(String... spellings) {
        for (String k : spellings) {
            if (overrides.containsKey(k)) {
                return Optional.of(overrides.get(k));
            }
        }
        for (String k : spellings) {
            PropertiesFile.Entry e = file.entries().get(k);
            if (e != null) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /** "rubis.properties:12: key", "command line: -Dkey" or, for a key a named option set, the option ("--duration"). */
    public String where(PropertiesFile.Entry e) {
        if (e.line() != 0) {
            return file.source().displayName() + ":" + e.line() + ": " + e.key();
        }
        GivenOption o = options.get(e.key());
        return o != null ? o.option() : "command line: -D" + e.key();
    }

    /**
     * The setting and its value as the user gave it, for an error message: {@code --users 99999999} when a named
     * option set it, else {@code rubis.properties:12: key = "value"} ({@code shown} stands for the value).
     */
    public String given(PropertiesFile.Entry e, String shown) {
        GivenOption o = e.line() == 0 ? options.get(e.key()) : null;
        return o != null ? o.option() + " " + o.text() : where(e) + " = \"" + shown + "\"";
    }

    private ConfigException bad(PropertiesFile.Entry e, String problem, String expected) {
        GivenOption o = e.line() == 0 ? options.get(e.key()) : null;
        if (o != null) {
            // The option and what was typed: "--duration 0: too small", not the property (in ms) behind it.
            return new ConfigException(o.option() + " " + o.text() + ": " + problem + "; expected "
                    + expected.replace(" milliseconds", " ms"));
        }
        return new ConfigException(where(e) + " = \"" + e.value() + "\": " + problem + "; expected " + expected);
    }

    private ConfigException missing(String key, String expected) {
        return new ConfigException(file.source().displayName() + ": required key " + key + " is missing; add a line "
                + key + " = " + expected);
    }

    /** The value of {@code setting}, read and checked by its entry in {@link Keys}. */
    public <T> T get(Setting<T> setting) {
        return setting.read(this);
    }

    public String string(String key, String def, String... aliases) {
        return note(
                key,
                entry(keys(key, aliases))
                        .map(PropertiesFile.Entry::value)
                        .filter(v -> !v.isEmpty())
                        .orElse(def));
    }

    private <T> T note(String key, T value) {
        effective.put(key, String.valueOf(value));
        return value;
    }

    /**
     * SHA-256 (lowercase hex) of the settings read so far, as UTF-8 lines {@code key=value\n} sorted
     * by key, a file-valued setting standing for the SHA-256 of the file's bytes (docs/SHARDING.md):
     * equal on every shard of one run, whatever path the files are mounted at. The settings that do
     * not change what is sent (output directory, progress, the live view's endpoint) are left out.
     */
    public String sha256() {
        StringBuilder b = new StringBuilder();
        effective.forEach((k, v) -> {
            if (!k.equals("client_output_dir") && !k.equals("client_progress") && !k.startsWith("client_metrics_")) {
                b.append(k).append('=').append(v).append('\n');
            }
        });
        return hex(b.toString().getBytes(StandardCharsets.UTF_8));
    }

    static String hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** A configured file's text as UTF-8, for {@link #sha256} (one text, one hash, whichever encoding it was read in). */
    private static String fileHash(Source s) {
        StringBuilder b = new StringBuilder();
        try (BufferedReader r = s.open()) {
            char[] buf = new char[8192];
            for (int n; (n = r.read(buf)) > 0; ) {
                b.append(buf, 0, n);
            }
        } catch (IOException e) {
            throw new ConfigException(s.displayName() + ": cannot read: " + e.getMessage());
        }
        return "sha256:" + hex(b.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A word of the given characters, or {@code def} when unset: {@code allowed} is a regular expression the whole value
     * must match, {@code expected} says it in words for the one-line error naming the file and line.
     */
    public String word(String key, String def, String allowed, String expected) {
        Optional<PropertiesFile.Entry> e =
                entry(keys(key)).filter(x -> !x.value().isEmpty());
        if (e.isPresent() && !e.get().value().matches(allowed)) {
            throw bad(e.get(), "not allowed", expected);
        }
        return note(key, e.map(PropertiesFile.Entry::value).orElse(def));
    }

    public String requiredString(String key, String example, String... aliases) {
        return note(
                key,
                entry(keys(key, aliases))
                        .filter(e -> !e.value().isEmpty())
                        .map(PropertiesFile.Entry::value)
                        .orElseThrow(() -> missing(key, example)));
    }

    public long longValue(String key, Long def, long min, String unit, String... aliases) {
        Optional<PropertiesFile.Entry> e =
                entry(keys(key, aliases)).filter(x -> !x.value().isEmpty());
        if (e.isEmpty()) {
            if (def == null) {
                throw missing(key, "a whole number of " + unit);
            }
            return note(key, def);
        }
        long v;
        try {
            v = Long.parseLong(e.get().value());
        } catch (NumberFormatException ex) {
            throw bad(
                    e.get(),
                    "not a whole number",
                    "a whole number of " + unit + ", e.g. " + key + " = " + (def == null ? 1 : def));
        }
        if (v < min) {
            throw bad(e.get(), v < 0 ? "negative" : "too small", "at least " + min + " " + unit);
        }
        return note(key, v);
    }

    public int intValue(String key, Integer def, int min, String unit, String... aliases) {
        long v = longValue(key, def == null ? null : def.longValue(), min, unit, aliases);
        if (v > Integer.MAX_VALUE) {
            throw bad(entry(keys(key, aliases)).orElseThrow(), "too large", "at most " + Integer.MAX_VALUE);
        }
        return (int) v;
    }

    public double doubleValue(String key, Double def, double min, String unit, String... aliases) {
        Optional<PropertiesFile.Entry> e =
                entry(keys(key, aliases)).filter(x -> !x.value().isEmpty());
        if (e.isEmpty()) {
            if (def == null) {
                throw missing(key, "a number (" + unit + ")");
            }
            return note(key, def);
        }
        double v;
        try {
            v = Double.parseDouble(e.get().value());
        } catch (NumberFormatException ex) {
            throw bad(
                    e.get(), "not a number", "a number (" + unit + "), e.g. " + key + " = " + (def == null ? 1 : def));
        }
        if (!Double.isFinite(v) || v < min) {
            throw bad(
                    e.get(),
                    v < 0 ? "negative" : "out of range",
                    "a finite number of at least " + min + " (" + unit + ")");
        }
        return note(key, v);
    }

    public boolean yesNo(String key, boolean def, String... aliases) {
        Optional<PropertiesFile.Entry> e =
                entry(keys(key, aliases)).filter(x -> !x.value().isEmpty());
        if (e.isEmpty()) {
            return note(key, def);
        }
        return note(
                key,
                switch (e.get().value().toLowerCase(Locale.ROOT)) {
                    case "yes", "true", "on", "1" -> true;
                    case "no", "false", "off", "0" -> false;
                    default -> throw bad(e.get(), "not a yes/no value", "yes or no");
                });
    }

    public <E extends Enum<E>> E choice(String key, E def, Class<E> type, String... aliases) {
        Optional<PropertiesFile.Entry> e =
                entry(keys(key, aliases)).filter(x -> !x.value().isEmpty());
        if (e.isEmpty()) {
            if (def == null) {
                throw missing(key, choices(type));
            }
            return note(key, def);
        }
        String v = e.get().value().toUpperCase(Locale.ROOT).replace('-', '_');
        for (E c : type.getEnumConstants()) {
            if (c.name().equals(v)) {
                return note(key, c);
            }
        }
        throw bad(e.get(), "unknown value", "one of " + choices(type));
    }

    private static <E extends Enum<E>> String choices(Class<E> type) {
        StringBuilder b = new StringBuilder();
        for (E c : type.getEnumConstants()) {
            if (!b.isEmpty()) {
                b.append('|');
            }
            b.append(c.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        return b.toString();
    }

    /**
     * A file a setting's file names (a load profile's mix): in {@link #sha256} by its bytes under {@code key}, as the
     * files settings name themselves.
     */
    public void noteFile(String key, Source s) {
        effective.put(key, fileHash(s));
    }

    /** Whether {@code key} was given on the command line (a named option or {@code -Dkey=value}), not by the file. */
    public boolean givenOnCommandLine(String key) {
        return overrides.containsKey(key) && !overrides.get(key).value().isEmpty();
    }

    /** Resolves a path-valued key against the properties file's location. */
    public Source path(String key, String def, String... aliases) {
        Optional<PropertiesFile.Entry> e =
                entry(keys(key, aliases)).filter(x -> !x.value().isEmpty());
        String name = e.map(PropertiesFile.Entry::value).orElse(def);
        if (name == null) {
            throw missing(key, "the path of the file");
        }
        Source s;
        try {
            s = file.source().resolve(name);
            if (e.isPresent() && e.get().line() == 0) {
                // A command-line path is relative to the working directory, else to the properties file.
                Source cwd = Source.file(Path.of(name));
                if (cwd.exists() || !s.exists()) {
                    s = cwd;
                }
            }
        } catch (InvalidPathException x) {
            String at = e.map(this::where).orElse(file.source().displayName() + ": " + key + " (default)");
            throw new ConfigException(at + ": not a valid path (" + x.getReason() + "); expected the path of a file");
        }
        if (!s.exists()) {
            String at = e.map(this::where).orElse(file.source().displayName() + ": " + key + " (default)");
            throw new ConfigException(at + " = \"" + name + "\": file not found (looked for " + s.displayName()
                    + "); relative paths are resolved against the properties file's directory");
        }
        effective.put(key, fileHash(s));
        return s;
    }

    private static String[] keys(String key, String... aliases) {
        String[] all = new String[aliases.length + 1];
        all[0] = key;
        System.arraycopy(aliases, 0, all, 1, aliases.length);
        return all;
    }

    /**
     * Keys of the properties file that no reader recognises: a warning each, with the nearest known key. An
     * unknown key given on the command line ({@code -Dkey=value}) is refused instead: typed for this run, it is
     * almost surely a typo, and ignoring it would run a workload other than the one asked for (300 users for
     * {@code -Dworkload_number_of_client_per_node=50}) before anyone reads the warning.
     */
    public List<String> unknownKeys(Set<String> known) {
        for (PropertiesFile.Entry e : overrides.values()) {
            if (!known.contains(e.key())) {
                String hint = NearestKey.of(e.key(), known)
                        .map(k -> ", did you mean " + k + "?")
                        .orElse(" (check its spelling)");
                throw new ConfigException(
                        "-D" + e.key() + "=" + e.value() + ": unknown key" + hint + "; nothing was run");
            }
        }
        return file.entries().values().stream()
                .filter(e -> !known.contains(e.key()))
                .map(e -> where(e) + ": unknown key, ignored (check its spelling" + hint(e.key(), known) + ")")
                .toList();
    }

    private static String hint(String key, Set<String> known) {
        return NearestKey.of(key, known).map(k -> "; did you mean " + k + "?").orElse("");
    }
}
