package org.rubis.client.config;

/**
 * Where the live view of a run is served (docs/LIVE.md): off, or a TCP port and the address it listens on for
 * {@code /metrics} (Prometheus) and the live page, and how long it stays up after the run ends so that a scraper or a
 * browser can read the final state. Watching does not change what is sent, so none of this is part of the
 * configuration's hash (every shard of a run serves its own port).
 *
 * @param port     the TCP port, 1 to 65535; 0 when off
 * @param address  the address to listen on, an IP literal (127.0.0.1 unless given: loopback only)
 * @param lingerMs how long the endpoint stays up once the run has ended, 0 = it closes with the run
 */
public record MetricsEndpoint(int port, String address, long lingerMs) {

    /** The default: no endpoint. */
    public static final MetricsEndpoint OFF = new MetricsEndpoint(0, "127.0.0.1", 0);

    public boolean on() {
        return port > 0;
    }

    /** This endpoint on another port (a shard's). */
    public MetricsEndpoint withPort(int p) {
        return new MetricsEndpoint(p, address, lingerMs);
    }
}
