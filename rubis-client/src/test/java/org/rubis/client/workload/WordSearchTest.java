package org.rubis.client.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The search through a letter answers exactly what {@link String#contains} answers, on any page. */
class WordSearchTest {

    private static void check(String text) {
        for (String[] w : new String[][] {{"ERROR", "3"}, {"Sorry", "0"}, {"ERROR", "0"}, {"Sorry", "4"}}) {
            assertEquals(
                    text.contains(w[0]),
                    WordSearch.contains(text, w[0], Integer.parseInt(w[1])),
                    () -> w[0] + " in <" + text + ">");
        }
    }

    @Test
    void edgesOfThePage() {
        for (String t : new String[] {
            "",
            "E",
            "ERROR",
            "Sorry",
            "ERRO",
            "RROR",
            "xERROR",
            "ERRORx",
            "OOOO",
            "SSSSorry",
            "SorrSorry",
            "ERRERROR",
            "O",
            "S"
        }) {
            check(t);
        }
    }

    @Test
    void pagesFullOfTheLetterAndOfNearMisses() {
        // More occurrences of the letter than the candidates compared one by one: the rest goes to the JDK's search.
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 3 * WordSearch.CANDIDATES; i++) {
            b.append("<OPTION VALUE=").append(i).append("> Sorr ERRO S O ");
        }
        String near = b.toString();
        check(near);
        check(near + "ERROR");
        check(near + "Sorry");
        check("Sorry" + near);
        check(near.substring(0, near.length() / 2) + "ERROR" + near.substring(near.length() / 2));
    }

    @Test
    void randomPagesOverTheWordsLetters() {
        SplittableRandom r = new SplittableRandom(11);
        String alphabet = "ERSOorry <>=\\n";
        for (int n = 0; n < 50_000; n++) {
            char[] c = new char[r.nextInt(0, 60)];
            for (int i = 0; i < c.length; i++) {
                c[i] = alphabet.charAt(r.nextInt(alphabet.length()));
            }
            String t = new String(c);
            if (r.nextInt(4) == 0) {
                int at = r.nextInt(t.length() + 1);
                t = t.substring(0, at) + (r.nextBoolean() ? "ERROR" : "Sorry") + t.substring(at);
            }
            check(t);
        }
    }
}
