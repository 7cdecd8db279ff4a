package org.rubis.client.config;

import java.util.List;
import org.rubis.client.input.Source;

/**
 * One key of rubis.properties: its default, how its value is read and checked (with the one-line error naming the
 * file, line and key), a line saying what it does, and the run option that sets it, if any. {@link Keys} holds every
 * one, so that the loader, the run command's options and the defaults {@code run --help} shows cannot disagree about
 * a key's name, default or bounds: a new setting is one entry there.
 *
 * @param key     the key, e.g. {@code client_pool_max}
 * @param def     the default when the key is unset, or null (required, or derived by the loader)
 * @param doc     what the setting does, in one line (null for the original's keys, which its docs describe)
 * @param reader  reads and checks the value, or null for a key the loader reads with others (or never: the
 *                original's commands)
 * @param option  the option of {@code run} that sets the key, or null
 * @param aliases other spellings of the key, read when it is unset (the original's {@code httpd_} forms)
 */
public record Setting<T>(String key, T def, String doc, Reader<T> reader, Flag option, List<String> aliases) {

    /** Reads a setting's value from the settings, {@code def} when unset; a bad value is a {@code ConfigException}. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(Settings s, String key, T def);
    }

    public Setting {
        aliases = List.copyOf(aliases);
    }

    /** The value in {@code s}, checked. */
    public T read(Settings s) {
        if (reader == null) {
            throw new IllegalStateException(key + " is read by the loader with the settings it depends on");
        }
        return reader.read(s, key, def);
    }

    /** This setting, set by {@code option} of run. */
    Setting<T> flag(Flag flag) {
        return new Setting<>(key, def, doc, reader, flag, aliases);
    }

    /** This setting, set by {@code name} of run from the value as typed; {@code run --help} shows its default. */
    Setting<T> flag(String name) {
        return flag(new Flag(name, Flag.Form.VALUE, true));
    }

    static <T> Setting<T> of(String key, T def, String doc, Reader<T> reader, String... aliases) {
        return new Setting<>(key, def, doc, reader, null, List.of(aliases));
    }

    /** A key the loader reads with others (its default depends on them), or never reads (the original's commands). */
    static Setting<String> known(String key, String doc) {
        return of(key, null, doc, null);
    }

    static Setting<Integer> integer(String key, Integer def, int min, String unit, String doc) {
        return of(key, def, doc, (s, k, d) -> s.intValue(k, d, min, unit));
    }

    static Setting<Long> whole(String key, Long def, long min, String unit, String doc) {
        return of(key, def, doc, (s, k, d) -> s.longValue(k, d, min, unit));
    }

    static Setting<Double> number(String key, Double def, double min, String unit, String doc) {
        return of(key, def, doc, (s, k, d) -> s.doubleValue(k, d, min, unit));
    }

    static Setting<Boolean> yesNo(String key, boolean def, String doc) {
        return of(key, def, doc, (s, k, d) -> s.yesNo(k, d));
    }

    static <E extends Enum<E>> Setting<E> choice(String key, E def, Class<E> type, String doc) {
        return of(key, def, doc, (s, k, d) -> s.choice(k, d, type));
    }

    /** A file the key names, {@code file} when unset (resolved against the properties file's directory). */
    static Setting<Source> path(String key, String file) {
        return of(key, null, null, (s, k, d) -> s.path(k, file));
    }

    static Setting<String> text(String key, String def, String doc, String... aliases) {
        return of(key, def, doc, (s, k, d) -> s.string(k, d, aliases), aliases);
    }
}
