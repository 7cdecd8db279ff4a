package org.rubis.client.log;

/** RFC 4180 quoting for the few fields that may need it. */
final class Csv {
    private Csv() {}

    static void append(StringBuilder b, String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            b.append(s);
            return;
        }
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                b.append('"');
            }
            b.append(c);
        }
        b.append('"');
    }
}
