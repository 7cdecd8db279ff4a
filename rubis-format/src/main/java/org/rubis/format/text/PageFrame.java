package org.rubis.format.text;

/**
 * The frame of a RUBiS page as the original PHP site prints it: the header with its title, logo and navigation
 * links, and a closing line. The embedded server's pages and the client's warm-up stub's share it, so that the
 * stub's pages have the shape (and the images) of the pages the client then parses in the run.
 */
public final class PageFrame {

    private PageFrame() {}

    /** Appends the page's opening and header to {@code b}, titled "RUBiS: {@code title}" (not escaped); returns b. */
    public static StringBuilder begin(StringBuilder b, String title) {
        return b.append("<html>\n<head><title>RUBiS: ")
                .append(title)
                .append("</title></head>\n<body bgcolor=\"#FFFFFF\">\n")
                .append("<table border=\"0\" width=\"100%\"><tr>\n")
                .append(
                        "<td><a href=\"/PHP/index.html\"><IMG SRC=\"/PHP/RUBiS_logo.jpg\" height=\"40\" alt=\"RUBiS logo\"></a></td>\n")
                .append(
                        "<td><a href=\"/PHP/register.html\">Register</a></td><td><a href=\"/PHP/browse.html\">Browse</a></td>\n")
                .append(
                        "<td><a href=\"/PHP/sell.html\">Sell</a></td><td><a href=\"/PHP/about_me.html\">About me</a></td>\n")
                .append("</tr></table>\n<hr>\n");
    }

    /** Appends the closing line naming {@code site} and the page's end to {@code b}; returns the whole page. */
    public static String end(StringBuilder b, String site) {
        return b.append("<hr>\n<center><i>")
                .append(site)
                .append("</i></center>\n</body>\n</html>\n")
                .toString();
    }
}
