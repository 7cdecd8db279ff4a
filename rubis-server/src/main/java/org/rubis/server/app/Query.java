package org.rubis.server.app;

import java.util.List;
import java.util.Map;

/** GET parameters of one request; a missing or malformed value becomes the RUBiS ERROR page. */
public final class Query {

    /** A bad or missing parameter: answered with the ERROR page, never a stack trace. */
    @SuppressWarnings("serial") // an exception, Serializable only by inheritance: nothing serialises it
    public static final class BadParameter extends RuntimeException {
        public BadParameter(String message) {
            super(message, null, false, false);
        }
    }

    private final Map<String, List<String>> params;

    public Query(Map<String, List<String>> params) {
        this.params = params;
    }

    public String string(String name) {
        List<String> v = params.get(name);
        if (v == null || v.isEmpty() || v.get(0).isBlank()) {
            throw new BadParameter("You must provide a " + name + "!");
        }
        return v.get(0);
    }

    public String string(String name, String def) {
        List<String> v = params.get(name);
        return v == null || v.isEmpty() || v.get(0).isBlank() ? def : v.get(0);
    }

    public boolean has(String name) {
        List<String> v = params.get(name);
        return v != null && !v.isEmpty() && !v.get(0).isBlank();
    }

    public int integer(String name) {
        String s = string(name);
        try {
            return Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            try {
                double d = Double.parseDouble(s.strip());
                if (d == Math.rint(d) && Math.abs(d) < Integer.MAX_VALUE) {
                    return (int) d;
                }
            } catch (NumberFormatException ignored) {
                // fall through
            }
            throw new BadParameter("You must provide a valid " + name + " (a whole number), not " + s + "!");
        }
    }

    public int integer(String name, int def) {
        return has(name) ? integer(name) : def;
    }

    public double number(String name) {
        String s = string(name);
        try {
            double d = Double.parseDouble(s.strip());
            if (!Double.isFinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new BadParameter("You must provide a valid " + name + " (a number), not " + s + "!");
        }
    }
}
