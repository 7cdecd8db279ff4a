package org.rubis.client.cli;

import java.util.Locale;
import java.util.StringJoiner;
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.CapPolicy;
import org.rubis.client.config.Interarrival;
import org.rubis.client.config.ServerModel;
import org.rubis.client.config.ThreadModel;
import org.rubis.client.workload.TransitionMode;
import picocli.CommandLine;

/** Converts option values to the configuration's enums, accepting what users type (any case, - or _). */
public final class Choices {

    private Choices() {}

    public static void register(CommandLine cl) {
        add(cl, Arrivals.class);
        add(cl, BackendKind.class);
        add(cl, CapPolicy.class);
        add(cl, Interarrival.class);
        add(cl, ServerModel.class);
        add(cl, org.rubis.client.config.PublishedTimes.class);
        add(cl, ThreadModel.class);
        add(cl, TransitionMode.class);
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
