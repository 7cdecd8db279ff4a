package org.rubis.client.config;

import java.util.Locale;

/**
 * Whose clock the published response times come from ({@code client_published_times},
 * {@code --published-times}): the client's own, or the packet capture's (the wire), whose error is
 * then that of the capture rather than of the client.
 */
public enum PublishedTimes {
    /** The client's own timestamps (the default). */
    CLIENT,
    /** The capture's per-request times: first request packet to last response packet. */
    WIRE,
    /**
     * The kernel's time stamps of each request's bytes (the kernel backend, its default): the first request byte's
     * transmit stamp to the last reply byte's receive stamp.
     */
    KERNEL;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return label();
    }
}
