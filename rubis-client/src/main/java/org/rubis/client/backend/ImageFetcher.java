package org.rubis.client.backend;

import java.io.IOException;

/**
 * The original's image download: every {@code <IMG SRC="...">} of a page is fetched after the
 * page. Off by default (the paper disabled it); image requests are counted apart from pages.
 */
public final class ImageFetcher {

    /** Fetches one path and returns the bytes read. */
    @FunctionalInterface
    public interface Fetch {
        long get(String path) throws IOException;
    }

    private final Fetch fetch;

    public ImageFetcher(Fetch fetch) {
        this.fetch = fetch;
    }

    public void fetchAll(String html, Reply out) throws IOException {
        if (html == null) {
            return;
        }
        int from = 0;
        while (true) {
            int at = indexOfIgnoreCase(html, "<IMG SRC=\"", from);
            if (at < 0) {
                return;
            }
            int start = at + 10;
            int end = html.indexOf('"', start);
            if (end < 0) {
                return;
            }
            String src = html.substring(start, end);
            if (src.startsWith("/")) {
                out.imageBytes += fetch.get(src);
                out.images++;
            }
            from = end;
        }
    }

    private static int indexOfIgnoreCase(String s, String needle, int from) {
        int n = needle.length();
        for (int i = from; i + n <= s.length(); i++) {
            if (s.regionMatches(true, i, needle, 0, n)) {
                return i;
            }
        }
        return -1;
    }
}
