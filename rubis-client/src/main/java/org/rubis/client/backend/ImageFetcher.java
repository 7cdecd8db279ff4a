package org.rubis.client.backend;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.rubis.format.run.ErrorClass;

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

    /**
     * An image fetch ended by the run's stop ({@link Backend#abortInFlight}): the page stands, with
     * {@code image-aborted}, as in the event-driven backend.
     */
    @SuppressWarnings("serial") // an exception, Serializable only by inheritance: nothing serialises it
    public static final class Aborted extends IOException {
        public Aborted() {
            super("aborted by the run's stop");
        }
    }

    private final Fetch fetch;

    public ImageFetcher(Fetch fetch) {
        this.fetch = fetch;
    }

    /**
     * Fetches the images of a page that arrived (after its response time was measured). A failed
     * image is an error of the request ({@code image-<class>}); the page itself stays valid.
     */
    public void fetchAfter(Reply out) {
        if (out.failed()) {
            return;
        }
        try {
            for (String src : paths(out.body)) {
                out.imageBytes += fetch.get(src);
                out.images++;
            }
        } catch (Aborted e) {
            out.failImage(ErrorClass.ABORTED);
        } catch (IOException | RuntimeException e) {
            out.failImage(ErrorClass.of(e, true));
        }
    }

    /**
     * The request's error when one of its page's images failed with {@code errorClass}: one name for
     * every backend (the event-driven one fetches images itself), docs/RUN-DIRECTORY.md.
     */
    public static String error(String errorClass) {
        return "image-" + errorClass;
    }

    /** The site-relative {@code <IMG SRC="...">} paths of a page, in order. */
    public static List<String> paths(String html) {
        List<String> out = new ArrayList<>();
        int from = 0;
        while (html != null) {
            int at = indexOfIgnoreCase(html, "<IMG SRC=\"", from);
            if (at < 0) {
                break;
            }
            int start = at + 10;
            int end = html.indexOf('"', start);
            if (end < 0) {
                break;
            }
            String src = html.substring(start, end);
            if (src.startsWith("/")) {
                out.add(src);
            }
            from = end;
        }
        return out;
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
