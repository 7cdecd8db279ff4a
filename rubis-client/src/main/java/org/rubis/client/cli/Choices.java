package org.rubis.client.cli;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.StringJoiner;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;

/**
 * Converts option values to enums, accepting what users type (any case, - or _): every enum that an option of the
 * command tree takes (the configuration's, such as {@code BackendKind}, and the commands' own), named in errors by
 * their labels ({@code toString}).
 */
public final class Choices {

    private Choices() {}

    /** Registers a converter for each enum an option or parameter of {@code cl} or of its subcommands takes. */
    public static void register(CommandLine cl) {
        Set<Class<?>> enums = new LinkedHashSet<>();
        collect(cl, enums);
        for (Class<?> e : enums) {
            addEnum(cl, e);
        }
    }

    private static void collect(CommandLine cl, Set<Class<?>> enums) {
        for (ArgSpec a : cl.getCommandSpec().args()) {
            if (a.type().isEnum()) {
                enums.add(a.type());
            }
            for (Class<?> t : a.auxiliaryTypes()) {
                if (t.isEnum()) {
                    enums.add(t);
                }
            }
        }
        cl.getSubcommands().values().forEach(sub -> collect(sub, enums));
    }

    /** {@code type} is an enum (checked by {@link #collect}); the raw cast only names its type parameter. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void addEnum(CommandLine cl, Class<?> type) {
        add(cl, (Class) type);
    }

    private static <E extends Enum<E>> void add(CommandLine cl, Class<E> type) {
        cl.registerConverter(type, value -> parse(type, value));
    }

    static <E extends Enum<E>> E parse(Class<E> type, String value) {
        String v = value.strip().toUpperCase(Locale.ROOT).replace('-', '_');
        StringJoiner expected = new StringJoiner(", ");
        for (E c : type.getEnumConstants()) {
            if (c.name().equals(v)) {
                return c;
            }
            expected.add(c.toString());
        }
        throw new CommandLine.TypeConversionException("expected one of " + expected);
    }
}
