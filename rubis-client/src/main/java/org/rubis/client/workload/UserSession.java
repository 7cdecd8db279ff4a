package org.rubis.client.workload;

import java.util.random.RandomGenerator;
import org.rubis.format.run.SessionEnd;

/**
 * One emulated user's session, as a state machine that any driver can run: a blocking thread per
 * user, or an event loop. The driver asks for {@link #nextPath()}, sends it, reports the reply with
 * {@link #onReply}, and waits {@link #thinkNanos()} (scaled) before the next request.
 *
 * <p>Rules of the original client: a reply containing {@code ERROR} counts an error and restarts
 * at Home at once (bounded: after {@link WorkloadModel#errorPagesWithoutThink()} such pages in a row,
 * the restart waits a think time, or a target whose home page says ERROR is hammered); otherwise the next state is drawn and a think time taken, and after a reply
 * containing {@code Sorry} the user then goes back instead of to the drawn state. A state that needs an id the previous reply lacks goes back.
 * A transport failure (no reply) counts an error and restarts at Home after a think time, so an
 * unreachable server cannot make users spin.
 */
public final class UserSession implements RequestGenerator.Context {

    /** What the driver does after a reply. */
    public enum Next {
        REQUEST,
        END
    }

    private final WorkloadModel model;
    private final RequestGenerator generator;
    private final long id;
    private final SessionRandom random;
    private final Navigator navigator;
    private final int userId;
    /** Built once: the log names the user on every request. */
    private final String nickname;

    private ReplyFacts reply = ReplyFacts.NONE;
    private int lastItemId = -1;
    private int requests;
    private int errors;
    private int pendingState;
    private String lastPath;
    private long thinkNanos;
    private SessionEnd endReason;
    private boolean lastError;
    /** The last reply was an ERROR page that reports the target's stored state ({@link TargetStatePage}). */
    private boolean lastTargetState;
    /** ERROR pages in a row (reset by any other reply); and the think times the bound added to this session. */
    private int errorPagesInARow;

    private int errorPageThinks;

    public UserSession(WorkloadModel model, RequestGenerator generator, long id, long runSeed) {
        this.model = model;
        this.generator = generator;
        this.id = id;
        this.random = new SessionRandom(runSeed, id);
        this.navigator = new Navigator(model.table(), model.sampler());
        this.userId = random.params.nextInt(Math.max(1, model.policy().users()));
        this.nickname = "user" + (userId + 1);
    }

    public long id() {
        return id;
    }

    @Override
    public int userId() {
        return userId;
    }

    public String nickname() {
        return nickname;
    }

    public int requests() {
        return requests;
    }

    public int errors() {
        return errors;
    }
    /** Why the session ended (null while it runs); {@link SessionEnd#STUCK}: its last request has no line. */
    public SessionEnd endReason() {
        return endReason;
    }

    /** Think times added after more than {@link WorkloadModel#errorPagesWithoutThink()} ERROR pages in a row. */
    public int errorPageThinks() {
        return errorPageThinks;
    }
    /** Think time (unscaled) the driver waits before the next request, or before the next session in closed mode. */
    public long thinkNanos() {
        return thinkNanos;
    }
    /** The interaction of the request last returned by {@link #nextPath()}. */
    public Interaction pendingState() {
        return Interaction.of(pendingState);
    }

    public Navigator navigator() {
        return navigator;
    }

    @Override
    public ReplyFacts reply() {
        return reply;
    }

    @Override
    public RandomGenerator random() {
        return random.params;
    }

    @Override
    public int itemId() {
        int found = reply.randomItemId(random.params);
        if (found >= 0) {
            lastItemId = found;
        }
        return lastItemId;
    }

    /** The path of the next request; states lacking the id they need are replaced by going back. */
    public String nextPath() {
        for (int guard = 0; guard < 64; guard++) {
            int state = navigator.state();
            String path = generator.path(Interaction.of(state), this);
            if (path != null) {
                pendingState = state;
                lastPath = path;
                return path;
            }
            int before = state;
            if (navigator.back() == before) {
                break; // nothing to go back to: fall through to Home
            }
        }
        navigator.reset();
        pendingState = navigator.state();
        lastPath = generator.path(Interaction.HOME, this);
        return lastPath;
    }

    /** The path last returned by {@link #nextPath()}. */
    public String lastPath() {
        return lastPath;
    }

    /**
     * Records the reply of the pending request ({@code body == null}: transport failure) and
     * decides what comes next. Returns {@link Next#END} when the session is over; the think time
     * drawn for the ending transition stays available (the closed mode waits it, as the original).
     */
    public Next onReply(String body, boolean failed) {
        requests++;
        thinkNanos = 0;
        lastError = false;
        lastTargetState = false;
        if (failed || body == null) {
            lastError = true;
            errorPagesInARow = 0;
            errors++;
            reply = ReplyFacts.NONE;
            navigator.reset();
            thinkNanos = model.thinkTime().nanos(Interaction.HOME.ordinal(), random.think);
        } else {
            reply = ReplyFacts.of(body);
            if (WordSearch.contains(body, "ERROR", 3)) { // through its 'O': docs in WordSearch
                lastError = true;
                lastTargetState = TargetStatePage.reports(body);
                errors++;
                navigator.reset();
                if (++errorPagesInARow > model.errorPagesWithoutThink()) {
                    thinkNanos = model.thinkTime().nanos(Interaction.HOME.ordinal(), random.think);
                    errorPageThinks++;
                }
            } else {
                errorPagesInARow = 0;
                // A Sorry page (nothing matched) is a transition like any other: a draw and its think time, as in
                // the original, whose nextState() drew and slept before computeURLFromState saw the Sorry and went
                // back instead (to the top of the stack the draw just left, or Home when it is empty). Going back
                // at once, without the think, added zero-think requests only once sessions reach the search
                // states: throughput rose through the run phase (docs/WORKLOAD.md, Sorry page).
                boolean sorry = WordSearch.contains(body, "Sorry", 0);
                int row = navigator.next(random.transitions.nextDouble());
                thinkNanos = model.thinkTime().nanos(row, random.think);
                if (navigator.ended()) {
                    endReason = SessionEnd.END_OF_SESSION;
                    return Next.END;
                }
                if (sorry) {
                    navigator.backOrHome();
                }
            }
        }
        if (requests >= model.maxTransitions()) {
            endReason = SessionEnd.MAX_TRANSITIONS;
            return Next.END;
        }
        return Next.REQUEST;
    }

    /** Marks the session as given up while a request was in flight (see {@link SessionEnd#STUCK}). */
    public void stuck() {
        if (endReason == null) {
            endReason = SessionEnd.STUCK;
        }
    }

    /** Marks the session as cut at a think time because its user left (a load profile lowered the users). */
    public void left() {
        if (endReason == null) {
            endReason = SessionEnd.LEFT;
        }
    }

    /** Marks the session as cut short by the end of the run. */
    public void abort() {
        if (endReason == null) {
            endReason = SessionEnd.RUN_ENDED;
        }
    }

    /** True when the last reply counted as an error (an ERROR page or a transport failure). */
    public boolean lastReplyWasError() {
        return lastError;
    }

    /**
     * True when the last reply was an ERROR page reporting the target's stored state (a nickname already taken, an item
     * no longer for sale): an error of the session's walk, as the original counted it, but not a failure.
     */
    public boolean lastReplyWasTargetState() {
        return lastTargetState;
    }
}
