package org.rubis.client.backend;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Names each TCP connection the backends open with a serial of its own, so that one {@code connection_id} names one
 * connection for the whole run. The local address:port cannot: the kernel hands a closed connection's ephemeral port
 * to a later one (in a 150 s run 3,411 of 8,797 address:port pairs named more than one connection), and every count
 * of connections, or of connections carrying requests at once, then merged several into one. The address:port is
 * kept beside it ({@link Reply#localAddress}): it is what the server's log and the packet capture know a connection
 * by. A serial is drawn after the reply's end mark, never inside a request's window.
 */
public final class ConnectionIds {

    private static final AtomicLong NEXT = new AtomicLong();
    /** The serial of each connection object seen (a socket, a channel, HttpClient's endpoint), weakly held. */
    private static final Map<Object, Long> IDS = Collections.synchronizedMap(new WeakHashMap<>());

    private ConnectionIds() {}

    /** A serial for a connection first seen now: 1, 2, ... in this process. */
    static long next() {
        return NEXT.incrementAndGet();
    }

    /**
     * The serial of {@code connection}, an object that stands for one TCP connection and whose equality is its
     * identity (a {@link java.net.Socket}, HttpClient 5's endpoint details of one connection).
     */
    static long of(Object connection) {
        return IDS.computeIfAbsent(connection, k -> next());
    }

    /** "address:port", or "" when unknown. */
    static String address(SocketAddress a) {
        if (a instanceof InetSocketAddress i && i.getAddress() != null) {
            return i.getAddress().getHostAddress() + ":" + i.getPort();
        }
        return a == null ? "" : a.toString();
    }
}
