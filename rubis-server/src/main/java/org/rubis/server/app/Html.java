package org.rubis.server.app;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.rubis.format.text.PageFrame;

/**
 * Page scaffolding shaped like the RUBiS PHP pages: the same header with its images ({@link PageFrame}), and the same
 * error page ("ERROR", HTTP 200) the original PHP prints for bad parameters.
 */
public final class Html {

    private Html() {}

    public static StringBuilder begin(String title) {
        return PageFrame.begin(new StringBuilder(4096), title);
    }

    public static String end(StringBuilder b) {
        return PageFrame.end(b, "RUBiS embedded auction site (rubis-server)");
    }

    /** The original's error page: contains ERROR, answered with status 200. */
    public static String error(String title, String message) {
        StringBuilder b = begin(title);
        b.append("<h2>ERROR</h2>\n<h3>").append(escape(message)).append("</h3><br>\n");
        return end(b);
    }

    public static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String rep = switch (c) {
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '&' -> "&amp;";
                case '"' -> "&quot;";
                default -> null;
            };
            if (rep != null && b == null) {
                b = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (b != null) {
                if (rep != null) {
                    b.append(rep);
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? s : b.toString();
    }

    /** A form's hidden field, as the original prints it: {@code <input type=hidden name=N value=V>} and a newline. */
    public static String hidden(String name, Object value) {
        return "<input type=hidden name=" + name + " value=" + value + ">\n";
    }

    public static String url(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    public static String money(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
