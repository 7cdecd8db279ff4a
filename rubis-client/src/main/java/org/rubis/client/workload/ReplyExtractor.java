package org.rubis.client.workload;

/**
 * The original client's plain-text extraction of ids and form values from the previous reply.
 * No HTML parser: RUBiS pages are generated, and the original's rules are what we must match.
 */
public final class ReplyExtractor {

    private static final String ITEM_ID = "itemId=";
    private static final String PAGE = "&page=";

    private ReplyExtractor() {}

    /** Every {@code itemId=} value of the reply in page order (-1 where no digits follow). */
    public static int[] allItemIds(String html) {
        int count = 0;
        for (int i = html.indexOf(ITEM_ID); i >= 0; i = html.indexOf(ITEM_ID, i + ITEM_ID.length())) {
            count++;
        }
        int[] ids = new int[count];
        int k = 0;
        for (int i = html.indexOf(ITEM_ID); i >= 0; i = html.indexOf(ITEM_ID, i + ITEM_ID.length())) {
            ids[k++] = (int) Math.min(Integer.MAX_VALUE, parseLong(html, i + ITEM_ID.length()));
        }
        return ids;
    }

    /** The values of the first one or two {@code &page=} links (none: empty). */
    public static int[] pages(String html) {
        int first = html.indexOf(PAGE);
        if (first < 0) {
            return new int[0];
        }
        int second = html.indexOf(PAGE, first + PAGE.length());
        long a = parseLong(html, first + PAGE.length());
        if (second < 0) {
            return new int[] {(int) a};
        }
        return new int[] {(int) a, (int) parseLong(html, second + PAGE.length())};
    }

    /** The integer after the first occurrence of {@code key}, or -1. */
    public static int firstInt(String html, String key) {
        if (html == null) {
            return -1;
        }
        int at = html.indexOf(key);
        if (at < 0) {
            return -1;
        }
        long v = parseLong(html, at + key.length());
        return v > Integer.MAX_VALUE ? -1 : (int) v;
    }

    /** The number after the first occurrence of {@code key}, or -1. */
    public static float firstFloat(String html, String key) {
        if (html == null) {
            return -1;
        }
        int at = html.indexOf(key);
        if (at < 0) {
            return -1;
        }
        return floatAt(html, at + key.length());
    }

    /** The number starting at {@code start} (up to the end of the value), or -1. */
    static float floatAt(String html, int start) {
        int end = endOfValue(html, start);
        try {
            return Float.parseFloat(html.substring(start, end).strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Digits from {@code start} up to the first of {@code " ? & >} (or any non-digit); -1 if none. */
    static long parseLong(String html, int start) {
        int end = endOfValue(html, start);
        long v = 0;
        int digits = 0;
        for (int i = start; i < end; i++) {
            char c = html.charAt(i);
            if (c < '0' || c > '9') {
                break;
            }
            if (v > (Long.MAX_VALUE - 9) / 10) {
                return -1;
            }
            v = v * 10 + (c - '0');
            digits++;
        }
        return digits == 0 ? -1 : v;
    }

    private static int endOfValue(String html, int start) {
        int i = start;
        while (i < html.length()) {
            char c = html.charAt(i);
            if (c == '"' || c == '?' || c == '&' || c == '>' || c == ' ' || c == '\n' || c == '\r') {
                break;
            }
            i++;
        }
        return i;
    }
}
