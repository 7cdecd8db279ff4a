package org.rubis.analysis.io;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The Strings of a file's short fields, made once: a log repeats a few values down millions of lines (the phase, the
 * state, the backend, an empty error), and a String for each was most of what reading it allocated. A field is looked
 * up by its bytes in a small table; a field that misses replaces the entry, so the table never grows.
 */
final class FieldStrings {

    /** Fields longer than this are made each time: ids and paths, which seldom repeat back to back. */
    private static final int LONGEST = 24;

    private static final int SLOTS = 256;

    private final byte[][] keys = new byte[SLOTS][];
    private final String[] values = new String[SLOTS];

    /** The String of {@code b[from..to)}, UTF-8. */
    String of(byte[] b, int from, int to) {
        int n = to - from;
        if (n == 0) {
            return "";
        }
        if (n > LONGEST) {
            return new String(b, from, n, StandardCharsets.UTF_8);
        }
        int h = n;
        for (int i = from; i < to; i++) {
            h = 31 * h + b[i];
        }
        int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
        byte[] k = keys[slot];
        if (k != null && Arrays.equals(k, 0, k.length, b, from, to)) {
            return values[slot];
        }
        String s = new String(b, from, n, StandardCharsets.UTF_8);
        keys[slot] = Arrays.copyOfRange(b, from, to);
        values[slot] = s;
        return s;
    }
}
