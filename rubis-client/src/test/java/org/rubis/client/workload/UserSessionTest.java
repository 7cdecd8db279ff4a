package org.rubis.client.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UserSessionTest {

    private final WorkloadModel model = Fixtures.model(TransitionMode.COMPATIBLE, 50);
    private final RequestGenerator gen = new RequestGenerator(model);

    private static List<String> walk(UserSession s, String reply) {
        List<String> states = new ArrayList<>();
        while (true) {
            s.nextPath();
            states.add(s.pendingState().label());
            if (s.onReply(reply, false) == UserSession.Next.END) {
                return states;
            }
        }
    }

    @Test
    void startsAtHomeWithUserOfItsOwnStream() {
        UserSession s = new UserSession(model, gen, 17, 99);
        assertEquals("/PHP/index.html", s.nextPath());
        assertEquals(s.nickname(), new UserSession(model, gen, 17, 99).nickname());
        assertTrue(s.userId() >= 0 && s.userId() < 1000);
    }

    @Test
    void sameSeedAndSessionGiveTheSameWalkOtherSessionsDiffer() {
        String page = Fixtures.SEARCH_PAGE;
        assertEquals(walk(new UserSession(model, gen, 5, 1), page), walk(new UserSession(model, gen, 5, 1), page));
        boolean differs = false;
        for (int id = 6; id < 20 && !differs; id++) {
            differs = !walk(new UserSession(model, gen, id, 1), page).equals(walk(new UserSession(model, gen, 5, 1), page));
        }
        assertTrue(differs);
    }

    @Test
    void errorPageCountsAndRestartsAtHomeWithoutThinking() {
        UserSession s = new UserSession(model, gen, 1, 1);
        s.nextPath();
        s.onReply(Fixtures.SEARCH_PAGE, false);
        s.nextPath();
        assertEquals(UserSession.Next.REQUEST, s.onReply(Fixtures.ERROR_PAGE, false));
        assertEquals(1, s.errors());
        assertTrue(s.lastReplyWasError());
        assertEquals(0, s.thinkNanos());
        assertEquals("/PHP/index.html", s.nextPath());
    }

    @Test
    void sorryPageGoesBackWithoutThinking() {
        for (long id = 0; id < 500; id++) {
            UserSession s = new UserSession(model, gen, id, 3);
            String prev = null;
            for (int i = 0; i < 40; i++) {
                s.nextPath();
                Interaction st = s.pendingState();
                if (st == Interaction.SEARCH_ITEMS_IN_CATEGORY && prev != null && !prev.equals(st.label())) {
                    s.onReply(Fixtures.SORRY_PAGE, false);
                    assertEquals(0, s.thinkNanos());
                    s.nextPath();
                    assertEquals(prev, s.pendingState().label(), "back to the previous state");
                    return;
                }
                prev = st.label();
                if (s.onReply(Fixtures.SEARCH_PAGE, false) == UserSession.Next.END) {
                    break;
                }
            }
        }
        // A search after another state is common in the bidding mix; not finding one is a failure.
        throw new AssertionError("no search found");
    }

    @Test
    void transportFailureCountsAnErrorAndThinksBeforeHome() {
        UserSession s = new UserSession(model, gen, 1, 1);
        s.nextPath();
        s.onReply(null, true);
        assertEquals(1, s.errors());
        assertTrue(s.lastReplyWasError());
        assertTrue(s.thinkNanos() > 0, "a user thinks after a failure instead of retrying at once");
        assertEquals("/PHP/index.html", s.nextPath());
    }

    @Test
    void maxTransitionsEndsTheSession() {
        WorkloadModel short3 = Fixtures.model(TransitionMode.COMPATIBLE, 3);
        for (long id = 0; id < 50; id++) {
            UserSession s = new UserSession(short3, new RequestGenerator(short3), id, 1);
            List<String> w = walk(s, Fixtures.SEARCH_PAGE);
            assertTrue(w.size() <= 3);
            if (w.size() == 3) {
                assertEquals(UserSession.EndReason.MAX_TRANSITIONS, s.endReason());
            } else {
                assertEquals(UserSession.EndReason.END_OF_SESSION, s.endReason());
            }
        }
    }
}
