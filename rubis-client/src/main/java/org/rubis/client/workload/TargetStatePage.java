package org.rubis.client.workload;

/**
 * Whether an ERROR page reports the target's stored state rather than a fault: a persistent database remembers what
 * earlier runs wrote, so a nickname registered before is "already taken" (RUBiS 1.4.3's PHP and Servlets words), and
 * an item an earlier run bought out or closed is "not for sale" or "not open for bids" (the embedded server's).
 * Such a page is neither the client's failure nor the server's, and the verdict must not blame either for it.
 * Searched only on pages that already hold the ERROR marker, so ordinary replies pay nothing.
 */
public final class TargetStatePage {

    /** The phrases, each with the index of a letter rare on RUBiS pages for {@link WordSearch}. */
    private static final String[] PHRASES = {"already taken", "is not for sale", "not open for bids"};

    private TargetStatePage() {}

    /** True when {@code errorPage}, a page with the ERROR marker, names a state the target kept from before. */
    public static boolean reports(String errorPage) {
        for (String p : PHRASES) {
            if (errorPage.contains(p)) {
                return true;
            }
        }
        return false;
    }
}
