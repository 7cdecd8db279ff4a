package org.rubis.client.backend;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Loopback source addresses to spread connections over (127.0.0.1, 127.0.0.2, ...): one source
 * address has one ephemeral port range, so many users with connection churn (TIME_WAIT) to one
 * server port can run out of ports; each extra source address brings a whole range. Sessions take
 * addresses round robin; with one address (the default) the OS chooses, as before.
 */
public final class SourceAddresses {

    private final InetAddress[] addresses;
    private final AtomicLong next = new AtomicLong();

    /** {@code count} loopback addresses when the target is on loopback, else none (the OS chooses). */
    public SourceAddresses(int count, String targetHost) {
        InetAddress[] a = new InetAddress[0];
        if (count > 1 && isLoopback(targetHost)) {
            a = new InetAddress[count];
            for (int i = 0; i < count; i++) {
                try {
                    a[i] = InetAddress.getByAddress(address(i + 1));
                } catch (UnknownHostException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        this.addresses = a;
    }

    /** The n-th loopback source address (1: 127.0.0.1). */
    private static byte[] address(int n) {
        return new byte[] {127, 0, (byte) (n >> 8), (byte) (n & 0xff)};
    }

    /** The last of {@code count} loopback source addresses, as text (3: 127.0.0.3; 300: 127.0.1.44). */
    public static String last(int count) {
        byte[] a = address(count);
        return "127.0." + (a[2] & 0xff) + "." + (a[3] & 0xff);
    }

    /** The source address for a new session, or null to let the OS choose. */
    public InetAddress next() {
        return addresses.length == 0
                ? null
                : addresses[(int) Math.floorMod(next.getAndIncrement(), (long) addresses.length)];
    }

    public int count() {
        return Math.max(1, addresses.length);
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
