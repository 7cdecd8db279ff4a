package org.rubis.client.config;

import java.math.BigDecimal;
import org.rubis.client.input.ConfigException;

/**
 * The option of {@code run} that sets a key, and how the value picocli parsed becomes the key's text: run's
 * durations are in seconds by default where the keys are in ms, its switches stand for yes or no.
 *
 * @param name         the option, e.g. {@code --duration}
 * @param form         how its value becomes the key's text
 * @param showsDefault whether {@code run --help} shows the packaged default beside it
 */
public record Flag(String name, Form form, boolean showsDefault) {

    /** How an option's value becomes the key's text. */
    public enum Form {
        /** As parsed. */
        VALUE,
        /** A duration as typed ({@code 90}, {@code 2m}) to milliseconds. */
        MILLIS,
        /** A switch that sets the key to yes. */
        YES,
        /** A switch that sets the key to no. */
        NO,
        /** {@code on} or {@code off} to yes or no. */
        ON_OFF
    }

    static Flag millis(String name, boolean showsDefault) {
        return new Flag(name, Form.MILLIS, showsDefault);
    }

    static Flag value(String name) {
        return new Flag(name, Form.VALUE, false);
    }

    static Flag yes(String name) {
        return new Flag(name, Form.YES, false);
    }

    static Flag no(String name) {
        return new Flag(name, Form.NO, false);
    }

    /** The key's text for the option's parsed {@code value}; a mistyped duration or switch names the option. */
    public String property(Object value) {
        return switch (form) {
            case VALUE -> value.toString();
            case MILLIS -> String.valueOf(Durations.millis(name, value.toString()));
            case YES -> "yes";
            case NO -> "no";
            case ON_OFF ->
                switch (value.toString()) {
                    case "on" -> "yes";
                    case "off" -> "no";
                    default -> throw new ConfigException(name + " " + value + ": expected on or off");
                };
        };
    }

    /** A key's value as the option takes it, for {@code run --help}: {@code 40s}, {@code on}, {@code 10}. */
    public String shown(Object value) {
        return switch (form) {
            case MILLIS -> (Long) value % 1000 == 0 ? (Long) value / 1000 + "s" : value + "ms";
            case ON_OFF -> Boolean.TRUE.equals(value) ? "on" : "off";
            default ->
                value instanceof Double d
                        ? BigDecimal.valueOf(d).stripTrailingZeros().toPlainString()
                        : String.valueOf(value);
        };
    }
}
