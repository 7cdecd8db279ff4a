package org.rubis.client.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rubis.format.run.SessionEnd;

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
            differs = !walk(new UserSession(model, gen, id, 1), page)
                    .equals(walk(new UserSession(model, gen, 5, 1), page));
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

    /**
     * The pages by which RUBiS reports what its database kept from earlier runs are ERROR pages to the walk (it
     * restarts at Home, as the original did), and told apart from the others: the PHP and Servlets versions' words
     * for a taken nickname, the embedded server's for an item sold out or closed.
     */
    @Test
    void targetStatePagesRestartLikeAnyErrorPageAndAreToldApart() {
        for (String page : List.of(
                "<h2>ERROR</h2>The nickname you have choosen is already taken by someone else. Please choose a new"
                        + " nickname.<br>",
                "<h2>ERROR</h2><h3>This item (12) is not for sale.</h3>",
                "<h2>ERROR</h2><h3>This item (12) is not open for bids.</h3>")) {
            UserSession s = new UserSession(model, gen, 1, 1);
            s.nextPath();
            s.onReply(page, false);
            assertTrue(s.lastReplyWasError(), page);
            assertTrue(s.lastReplyWasTargetState(), page);
            assertEquals("/PHP/index.html", s.nextPath());
            s.onReply(Fixtures.ERROR_PAGE, false);
            assertTrue(s.lastReplyWasError());
            assertTrue(!s.lastReplyWasTargetState(), "a bad parameter is no target state");
        }
        UserSession s = new UserSession(model, gen, 1, 1);
        s.nextPath();
        s.onReply("<h2>Sorry</h2> this nickname is already taken", false); // no ERROR marker: not an error at all
        assertTrue(!s.lastReplyWasTargetState());
    }

    /**
     * A Sorry page is a transition like any other (a draw and its think time), after which the user goes
     * back instead of to the drawn state, as the original's loop did: nextState() drew and slept, then
     * computeURLFromState saw the Sorry and popped the history. Checked against a twin session (same id and
     * seed) that got a normal page at the same point: the same think time, and the state its draw reached
     * decides where the Sorry session goes.
     */
    @Test
    void sorryPageThinksLikeAnyPageThenGoesBack() {
        int redo = 0, home = 0, ended = 0;
        for (long id = 0; id < 2000; id++) {
            UserSession sorry = new UserSession(model, gen, id, 3);
            UserSession twin = new UserSession(model, gen, id, 3);
            for (int i = 0; i < 40; i++) {
                sorry.nextPath();
                twin.nextPath();
                Interaction st = sorry.pendingState();
                assertEquals(st, twin.pendingState());
                if (st == Interaction.SEARCH_ITEMS_IN_CATEGORY) {
                    int depthBefore = twin.navigator().depth();
                    UserSession.Next n = sorry.onReply(Fixtures.SORRY_PAGE, false);
                    UserSession.Next m = twin.onReply(Fixtures.SEARCH_PAGE, false);
                    assertTrue(sorry.thinkNanos() > 0, "a Sorry page costs a think time");
                    assertEquals(twin.thinkNanos(), sorry.thinkNanos(), "the same draw as any other page");
                    assertEquals(m, n, "a draw of End of Session ends the session after a Sorry page too");
                    if (m == UserSession.Next.END) {
                        ended++;
                        break;
                    }
                    sorry.nextPath();
                    Navigator t = twin.navigator();
                    if (t.depth() == depthBefore + 1) { // the draw moved on and pushed the search: back to it
                        assertEquals(st, sorry.pendingState(), "the search that matched nothing is tried again");
                        redo++;
                    } else if (t.depth() == 0 && t.state() != st.ordinal()) { // the draw cleared the history
                        assertEquals(Interaction.HOME, sorry.pendingState(), "nothing to go back to: Home");
                        home++;
                    }
                    break;
                }
                if (sorry.onReply(Fixtures.SEARCH_PAGE, false) == UserSession.Next.END) {
                    twin.onReply(Fixtures.SEARCH_PAGE, false);
                    break;
                }
                twin.onReply(Fixtures.SEARCH_PAGE, false);
            }
        }
        // Each outcome is common in the bidding mix; not meeting one means the walk never got there.
        assertTrue(redo > 20 && home > 20, "tried again " + redo + ", Home " + home + ", ended " + ended);
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
                assertEquals(SessionEnd.MAX_TRANSITIONS, s.endReason());
            } else {
                assertEquals(SessionEnd.END_OF_SESSION, s.endReason());
            }
        }
    }
}
