package org.rubis.client.workload;

import java.util.Arrays;

/**
 * The state machine of one session: current state, the "back" history stack and End of Session,
 * with the original client's rules. Moving to a state whose Back probability is 0 clears the
 * stack, moving to any other state pushes the state left; choosing the Back row pops the stack
 * (with an empty stack the user stays where it is; the original would fail there).
 */
public final class Navigator {

    private final TransitionTable table;
    private final TransitionSampler sampler;
    private int[] stack = new int[16];
    private int depth;
    private int state;
    private int previous = -1;
    private boolean ended;

    public Navigator(TransitionTable table, TransitionSampler sampler) {
        this.table = table;
        this.sampler = sampler;
        reset();
    }

    /** Back to Home with an empty history, as at session start or after an ERROR page. */
    public void reset() {
        state = Interaction.HOME.ordinal();
        previous = -1;
        depth = 0;
        ended = false;
    }

    public int state() {
        return state;
    }

    public boolean ended() {
        return ended;
    }

    public int depth() {
        return depth;
    }

    /** One transition driven by the uniform draw {@code u}; returns the new state (or the end row). */
    public int next(double u) {
        int before = state;
        int to = sampler.next(before, u);
        if (to == table.endRow()) {
            ended = true;
            return to;
        }
        if (to == table.backRow()) {
            if (depth > 0) {
                previous = state;
                state = stack[--depth];
                return state;
            }
            to = TransitionSampler.STAY; // back with nothing to go back to
        }
        if (to == TransitionSampler.STAY) {
            to = before;
        }
        if (table.probability(table.backRow(), to) != 0) {
            push(before);
        } else {
            depth = 0;
        }
        previous = before;
        state = to;
        return state;
    }

    /**
     * Goes back without a transition draw (a page missing the id the state needs): to
     * the top of the history stack, or, when the stack is empty, to the state the user came from.
     */
    public int back() {
        int from = state;
        if (depth > 0) {
            state = stack[--depth];
        } else if (previous >= 0) {
            state = previous;
        }
        previous = from;
        return state;
    }

    /**
     * The original's answer to a "Sorry" page, after the transition it drew: back to the top of the
     * history stack, or Home when the stack is empty ({@code backToPreviousState()} returned -1, which
     * reset to the initial state). The draw has just pushed the state left (the search that matched
     * nothing) unless it moved to a state with no Back probability, which cleared the stack.
     */
    public int backOrHome() {
        if (depth > 0) {
            previous = state;
            state = stack[--depth];
            return state;
        }
        reset();
        return state;
    }

    private void push(int s) {
        if (depth == stack.length) {
            stack = Arrays.copyOf(stack, depth * 2);
        }
        stack[depth++] = s;
    }
}
