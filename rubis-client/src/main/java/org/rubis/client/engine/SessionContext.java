package org.rubis.client.engine;

import org.rubis.client.backend.Backend;

/** What every session of a run shares: its clock, stop signal, backend, recorder and active-session count. */
record SessionContext(RunClock clock, StopSignal stop, Backend backend, Recorder recorder, ActiveSessions active) {}
