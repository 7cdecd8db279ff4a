package org.rubis.client.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.input.ConfigException;

/**
 * Checks before a run that the operating system can hold it: open files (RLIMIT_NOFILE, for the
 * client and for the embedded server, which inherits the client's limit) and ephemeral ports per
 * source address. A plan that cannot fit is refused with one line saying what to change, instead
 * of thousands of connect errors in the middle of a measurement.
 *
 * @param connections  connections the client holds at once
 * @param fdLimit      this process's open-file limit (-1 when unknown)
 * @param ports        ephemeral ports per source address (-1 when unknown)
 */
public record ResourcePlan(int connections, long fdLimit, int ports) {

    /** Files a JVM holds besides its connections (jars, epoll, logs, pipes), with margin. */
    public static final int FD_RESERVE = 256;
    /** Ports in use per open connection, counting the TIME_WAIT of connections closed within the last minute. */
    public static final double PORTS_PER_CONNECTION = 1.5;
    /** Share of the ephemeral range a plan may use. */
    public static final double PORT_SHARE = 0.9;

    /** The plan of a run: its connections and this host's limits. */
    public static ResourcePlan of(ClientConfig c) {
        return new ResourcePlan(connections(c), openFileLimit(), ephemeralPorts());
    }

    /** Connections held at once: one per user with dedicated/netty, the pool bound with pooled; 0 when unknown (legacy, hybrid). */
    static int connections(ClientConfig c) {
        BackendKind backend = c.execution().backend();
        if (c.arrivals() != Arrivals.CLOSED) {
            return backend.sharesConnections() ? 0 : c.arrival().maxConcurrentSessions();
        }
        return backend.connectionsHeld(c.users(), c.execution().poolMax());
    }

    /** Open files one process needs. */
    public long filesNeeded() {
        return connections + (long) FD_RESERVE;
    }

    /** Loopback source addresses needed so that ports do not run out (1 when one suffices or unknown). */
    public int sourceAddressesNeeded() {
        if (ports <= 0) {
            return 1;
        }
        return (int) Math.max(1, Math.ceil(connections * PORTS_PER_CONNECTION / (ports * PORT_SHARE)));
    }

    /**
     * Throws a one-line {@link ConfigException} when the run cannot fit; returns the loopback source addresses the run
     * is to use: {@code sourceAddresses} (configured), or, when those have too few ports for the plan and the backend
     * spreads its connections over them (dedicated, netty) on a loopback target, as many as it needs.
     */
    public int check(boolean embedded, int sourceAddresses, boolean loopback, BackendKind backend) {
        if (fdLimit > 0 && filesNeeded() > fdLimit) {
            throw new ConfigException(String.format(
                    Locale.ROOT,
                    "%d connections need about %d open files per process%s, but the limit is %d: raise it (ulimit -n %d) or use fewer users",
                    connections,
                    filesNeeded(),
                    embedded ? " (the client and the embedded server each)" : "",
                    fdLimit,
                    filesNeeded()));
        }
        int need = sourceAddressesNeeded();
        if (need <= sourceAddresses) {
            return sourceAddresses;
        }
        boolean spreads =
                backend == BackendKind.DEDICATED || backend == BackendKind.NETTY || backend == BackendKind.KERNEL;
        if (loopback && spreads) {
            return need;
        }
        int fit = (int) Math.floor(ports * PORT_SHARE / PORTS_PER_CONNECTION);
        throw new ConfigException(portRule() + ": "
                + (loopback
                        ? String.format(
                                Locale.ROOT,
                                "the %s backend cannot spread its connections over more source addresses; use at most %d connections "
                                        + "(--pool-max, --users), or dedicated or netty with their own source addresses",
                                backend.label(),
                                fit)
                        : String.format(
                                Locale.ROOT,
                                "widen net.ipv4.ip_local_port_range or use at most %d connections (source addresses are spread on a "
                                        + "loopback target only)",
                                fit)));
    }

    /**
     * The port rule in words, with this plan's figures: {@value #PORTS_PER_CONNECTION} ports per connection (counting those
     * closed within the last minute, in TIME_WAIT), within {@value #PORT_SHARE} of one source address's ephemeral range.
     */
    public String portRule() {
        return String.format(
                Locale.ROOT,
                "%d connections need about %.0f ephemeral ports (%.1f per connection, counting those in TIME_WAIT), "
                        + "more than the %.0f a plan may take of one source address's %d (%.0f %% of net.ipv4.ip_local_port_range)",
                connections,
                connections * PORTS_PER_CONNECTION,
                PORTS_PER_CONNECTION,
                Math.floor(ports * PORT_SHARE),
                ports,
                PORT_SHARE * 100);
    }

    /** The soft RLIMIT_NOFILE of this process, or -1 when it cannot be read (not Linux). */
    public static long openFileLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String v = line.substring("Max open files".length()).trim().split("\\s+")[0];
                    return "unlimited".equals(v) ? Long.MAX_VALUE : Long.parseLong(v);
                }
            }
        } catch (IOException | RuntimeException e) {
            // unknown
        }
        return -1;
    }

    /** Ports in the ephemeral range, or -1 when it cannot be read. */
    public static int ephemeralPorts() {
        try {
            String[] r = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
                    .get(0)
                    .trim()
                    .split("\\s+");
            return Integer.parseInt(r[1]) - Integer.parseInt(r[0]) + 1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
