package org.rubis.server.app;

/**
 * Page scaffolding shaped like the RUBiS PHP pages: the same header with its images, and the same
 * error page ("ERROR", HTTP 200) the original PHP prints for bad parameters.
 */
public final class Html {

    private Html() {}

    public static StringBuilder begin(String title) {
        StringBuilder b = new StringBuilder(4096);
        b.append("<html>\n<head><title>RUBiS: ").append(title).append("</title></head>\n<body bgcolor=\"#FFFFFF\">\n")
         .append("<table border=\"0\" width=\"100%\"><tr>\n")
         .append("<td><a href=\"/PHP/index.html\"><IMG SRC=\"/PHP/RUBiS_logo.jpg\" height=\"40\" alt=\"RUBiS logo\"></a></td>\n")
         .append("<td><a href=\"/PHP/register.html\">Register</a></td><td><a href=\"/PHP/browse.html\">Browse</a></td>\n")
         .append("<td><a href=\"/PHP/sell.html\">Sell</a></td><td><a href=\"/PHP/about_me.html\">About me</a></td>\n")
         .append("</tr></table>\n<hr>\n");
        return b;
    }

    public static String end(StringBuilder b) {
        b.append("<hr>\n<center><i>RUBiS embedded auction site (rubis-server)</i></center>\n</body>\n</html>\n");
        return b.toString();
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

    public static String url(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8);
    }

    public static String money(double v) {
        return String.format(java.util.Locale.ROOT, "%.2f", v);
    }
}
