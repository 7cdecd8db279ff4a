package org.rubis.client.log;

/**
 * Who else reads every record after its line is written, on the log writer's thread (off the timing path): the live
 * view's Prometheus counters and histograms, the capture's live join. A tap must be quick and must not block: the
 * writer is the one thread that empties the users' queue.
 */
public interface RecordTap {

    void request(RequestRecord r);

    default void session(SessionRecord s) {}
}
