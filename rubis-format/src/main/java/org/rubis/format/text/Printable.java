package org.rubis.format.text;

import java.util.Locale;

/**
 * Makes text quoted from input files safe to print on a terminal. An error message names the file, line and value
 * that were wrong, and the value is the user's (a properties file, a CSV log, a directory name): an escape sequence in
 * it would otherwise reach the terminal as a command (colours, a cleared screen, a retitled window, a hidden line).
 * The three programs print every error, warning and note through {@link #escape}, the one place that decides what
 * is shown as is.
 */
public final class Printable {

    private Printable() {}

    /**
     * {@code text} with every control character written as an escape: C0 controls (line breaks and ESC included: a
     * message is one line), DEL and the C1 controls as {@code \xHH}, and the Unicode format characters that reorder
     * or hide text (bidirectional overrides and isolates, zero-width characters) as {@code <U+HHHH>}. Everything else,
     * accented letters included, is kept. Null reads as "null", as string concatenation has it.
     */
    public static String escape(CharSequence text) {
        if (text == null) {
            return "null";
        }
        StringBuilder b = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String esc = c < 0x20 || (c >= 0x7f && c <= 0x9f)
                    ? String.format(Locale.ROOT, "\\x%02x", (int) c)
                    : hidden(c) ? String.format(Locale.ROOT, "<U+%04X>", (int) c) : null;
            if (esc != null && b == null) {
                b = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (b != null) {
                if (esc != null) {
                    b.append(esc);
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? text.toString() : b.toString();
    }

    /** Unicode format characters that change how the surrounding text is shown (Trojan Source) or hide it. */
    private static boolean hidden(char c) {
        return (c >= 0x200b && c <= 0x200f)
                || (c >= 0x202a && c <= 0x202e)
                || (c >= 0x2066 && c <= 0x2069)
                || c == 0xfeff
                || c == 0x2028
                || c == 0x2029;
    }
}
