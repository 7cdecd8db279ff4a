package org.rubis.client.engine;

import java.util.concurrent.atomic.AtomicLong;

/** The run's session and user counters, shared by the dispatchers and read by the summary. */
final class RunCounters {
    final AtomicLong sessionsStarted = new AtomicLong();
    final AtomicLong sessionsDelayed = new AtomicLong();
    final AtomicLong sessionsDropped = new AtomicLong();
    /** Hybrid sessions that have ended (all started ones ended: the run's work is done). */
    final AtomicLong hybridEnded = new AtomicLong();

    final ActiveSessions active = new ActiveSessions();
    volatile int usersStarted;
}
