package org.rubis.client.live;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** The few query parameters the feed takes ({@code from}, {@code hist}); anything malformed is ignored. */
final class Query {

    private Query() {}

    static Map<String, String> parse(String query) {
        Map<String, String> m = new HashMap<>();
        if (query == null || query.length() > 256) {
            return m;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                try {
                    m.put(
                            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                } catch (IllegalArgumentException e) {
                    // a malformed escape: not a parameter
                }
            }
        }
        return m;
    }

    static long number(String text, long def) {
        if (text == null || !text.matches("[0-9]{1,18}")) {
            return def;
        }
        return Long.parseLong(text);
    }
}
