package org.rubis.client.backend.kernel;

import java.lang.foreign.Arena;

/**
 * Keeps the kernel's receive stamping on while a kernel backend lives: one socket of its own with
 * {@code SOF_TIMESTAMPING_RX_SOFTWARE} set. The kernel turns receive stamping on for the whole stack when the first
 * socket asks and off when the last one closes, each time through deferred work (the {@code netstamp} static key), so
 * segments that arrive right after the first socket asked carry no stamp; held from before the probe to the end of the
 * run, it spares every connection of the run that gap (and each of the run's connections closing the last one).
 */
public final class StampsOn implements AutoCloseable {

    private final Arena arena = Arena.ofShared();
    private final Linux.Errno errno = new Linux.Errno(arena);
    private int fd;

    /** Turns the stamps on, or leaves them as they are when the socket or its option is refused (the probe says why). */
    public StampsOn() {
        if (Linux.unavailable() != null) {
            fd = -1;
            return;
        }
        fd = Linux.socket(errno, Linux.AF_INET, Linux.SOCK_STREAM | Linux.SOCK_CLOEXEC);
        if (fd >= 0
                && Linux.setInt(
                                errno,
                                fd,
                                Linux.SOL_SOCKET,
                                Linux.SO_TIMESTAMPING,
                                Linux.SOF_TIMESTAMPING_RX_SOFTWARE | Linux.SOF_TIMESTAMPING_SOFTWARE)
                        < 0) {
            close();
        }
    }

    @Override
    public synchronized void close() {
        if (fd >= 0) {
            Linux.close(errno, fd);
            fd = -1;
            arena.close();
        }
    }
}
