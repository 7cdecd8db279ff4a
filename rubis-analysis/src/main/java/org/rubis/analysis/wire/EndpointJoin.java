package org.rubis.analysis.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * The join of one client endpoint (address:port, the client's connection id): its log lines in completion order with
 * its requests on the wire in order, both in time order. A line and the next wire request of the same path are one
 * request; when the paths differ, the wire requests up to the next one of the line's path within
 * {@link #LOOKAHEAD} are wire-only (images, requests the client did not log), and a line with none there is
 * client-only. The wire check applies it to whole files; the live join applies the same rule as lines and packets
 * come, deciding only what more data could not change.
 */
final class EndpointJoin {

    /** How far ahead a path is looked for when the next lines disagree (images, failed connects). */
    static final int LOOKAHEAD = 64;

    final List<WireCheck.ClientLine> lines;
    final List<WireRequest> wire;
    /** The next line and wire request to decide on. */
    int i;

    int j;

    EndpointJoin(List<WireCheck.ClientLine> lines, List<WireRequest> wire) {
        this.lines = lines;
        this.wire = wire;
    }

    EndpointJoin() {
        this(new ArrayList<>(), new ArrayList<>());
    }

    /** Joins every line with every wire request (both complete). */
    void all(BiConsumer<WireCheck.ClientLine, WireRequest> match) {
        advance(lines.size(), true, r -> true, match);
    }

    /**
     * Advances as far as the rule decides.
     *
     * @param settled  lines {@code [0, settled)} are final (no earlier line can still come)
     * @param complete no wire request will come after those in {@link #wire}
     * @param usable   whether a wire request may be matched now (its response is complete)
     * @param match    takes each line and its wire request
     */
    void advance(
            int settled,
            boolean complete,
            Predicate<WireRequest> usable,
            BiConsumer<WireCheck.ClientLine, WireRequest> match) {
        while (i < settled && j < wire.size()) {
            WireCheck.ClientLine c = lines.get(i);
            WireRequest r = wire.get(j);
            if (WireCheck.samePath(r, c.path)) {
                if (!usable.test(r)) {
                    return;
                }
                match.accept(c, r);
                i++;
                j++;
                continue;
            }
            int ahead = -1;
            int window = Math.min(wire.size(), j + 1 + LOOKAHEAD);
            for (int k = j + 1; k < window; k++) {
                if (WireCheck.samePath(wire.get(k), c.path)) {
                    ahead = k;
                    break;
                }
            }
            if (ahead >= 0) {
                j = ahead; // the requests skipped are wire-only (images, or requests the client did not log)
            } else if (complete || wire.size() >= j + 1 + LOOKAHEAD) {
                i++; // the client line has no wire request: client-only
            } else {
                return; // a wire request still to come may be this line's
            }
        }
    }

    /** Forgets what was decided (the live join keeps only what is still open). */
    void dropDecided() {
        lines.subList(0, i).clear();
        wire.subList(0, j).clear();
        i = 0;
        j = 0;
    }
}
