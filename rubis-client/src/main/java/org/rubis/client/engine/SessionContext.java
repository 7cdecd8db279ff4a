package org.rubis.client.engine;

import org.rubis.client.backend.Backend;

/**
 * What every session of a run shares: its clock, stop signal, backend, recorder, active-session count and test seams.
 */
record SessionContext(
        RunClock clock, StopSignal stop, Backend backend, Recorder recorder, ActiveSessions active, RunSeams seams) {}
