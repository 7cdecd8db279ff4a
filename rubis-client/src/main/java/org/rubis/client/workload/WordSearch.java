package org.rubis.client.workload;

/**
 * Whether a page contains a word, found through one of the word's letters. Every reply is searched
 * for the original client's {@code ERROR} and {@code Sorry}; {@link String#contains} did that at about
 * five bytes a cycle here (an AMD EPYC VM), 100 to 800 ns for both words on a RUBiS page and the
 * largest single Java cost of a request at the highest rates. The JDK's search for one character
 * is vectorized and many times faster, so the search goes from one occurrence of a letter that is
 * rare on RUBiS pages (upper-case {@code O} of ERROR, {@code S} of Sorry) to the next and compares
 * the word there. A page full of that letter costs at most a few comparisons more than
 * {@code contains}: after {@link #CANDIDATES} of them the JDK's search takes the rest.
 */
public final class WordSearch {

    /** Comparisons at occurrences of the letter before the rest of the page goes to {@link String#indexOf(String, int)}. */
    static final int CANDIDATES = 8;

    private WordSearch() {}

    /** {@code text.contains(word)}, searched through the letter at {@code word.charAt(pivot)}. */
    public static boolean contains(String text, String word, int pivot) {
        char letter = word.charAt(pivot);
        int at = text.indexOf(letter, pivot);
        for (int n = 0; at >= 0; at = text.indexOf(letter, at + 1)) {
            if (text.startsWith(word, at - pivot)) {
                return true;
            }
            if (++n == CANDIDATES) {
                return text.indexOf(word, at - pivot + 1) >= 0;
            }
        }
        return false;
    }
}
