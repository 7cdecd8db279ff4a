package org.rubis.client.config;

import java.util.Collection;
import java.util.Optional;

/**
 * The known key a misspelt one was probably meant to be ({@code workload_number_of_client_per_node} ->
 * {@code workload_number_of_clients_per_node}), so that an unknown-key message can say "did you mean ...?"
 * instead of leaving the user to compare a 35-character name with the documentation letter by letter.
 */
final class NearestKey {

    private NearestKey() {}

    /** The known key with the fewest edits from {@code key}, if it is close enough to be a typo of it. */
    static Optional<String> of(String key, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(key, k);
            if (d < bestDistance || d == bestDistance && best != null && k.compareTo(best) < 0) {
                best = k;
                bestDistance = d;
            }
        }
        // A typo: a few edits, and fewer than a third of the key (short keys are not all "near" each other).
        int limit = Math.min(4, Math.max(1, key.length() / 3));
        return best != null && bestDistance <= limit ? Optional.of(best) : Optional.empty();
    }

    /** Levenshtein distance (insertions, deletions, substitutions). */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
