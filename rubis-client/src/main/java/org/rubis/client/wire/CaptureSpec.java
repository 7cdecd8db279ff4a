package org.rubis.client.wire;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * What to capture: the target's address and port, and the capture's cost settings. The BPF filter is built
 * from the resolved numeric address and the port only, never from a configured string, so nothing a user
 * typed reaches libpcap's filter compiler unchecked.
 *
 * @param address     the target's address (resolved)
 * @param port        the target's TCP port
 * @param interfaceName the capture interface, or null to take the one that reaches the target
 * @param snapLength  bytes kept per packet: headers plus the start of the payload (request and status lines)
 * @param bufferBytes the kernel capture buffer: large, so bursts are not dropped while the writer catches up
 */
public record CaptureSpec(InetAddress address, int port, String interfaceName, int snapLength, int bufferBytes) {
    /** Ethernet 14 + IPv4 60 + TCP 60 at most, plus ~120 bytes for `GET /path HTTP/1.1` or `HTTP/1.1 200 OK`. */
    public static final int DEFAULT_SNAP_LENGTH = 256;
    /** 128 MB: at 256 bytes per packet, over 400,000 packets of slack if the writer thread stalls. */
    public static final int DEFAULT_BUFFER_BYTES = 128 * 1024 * 1024;

    public CaptureSpec {
        Objects.requireNonNull(address, "address");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("capture port must be 1..65535, got " + port);
        }
        if (snapLength < 68 || snapLength > 262144) {
            throw new IllegalArgumentException("capture snap length must be 68..262144 bytes, got " + snapLength);
        }
        if (bufferBytes < 1024 * 1024) {
            throw new IllegalArgumentException("capture buffer must be at least 1 MB, got " + bufferBytes);
        }
        if (interfaceName != null && !interfaceName.matches("[A-Za-z0-9_.:@-]{1,64}")) {
            throw new IllegalArgumentException(
                    "capture interface name is not a valid interface name: " + interfaceName);
        }
    }

    /** The defaults (snap length 256, 128 MB buffer, interface that reaches the target) for host:port. */
    public static CaptureSpec forTarget(String host, int port) throws UnknownHostException {
        return new CaptureSpec(InetAddress.getByName(host), port, null, DEFAULT_SNAP_LENGTH, DEFAULT_BUFFER_BYTES);
    }

    public CaptureSpec withInterface(String name) {
        return new CaptureSpec(address, port, name, snapLength, bufferBytes);
    }

    /** `tcp and host A and port P`, with A the numeric address. */
    public String filter() {
        String host = address.getHostAddress();
        int zone = host.indexOf('%');
        if (zone >= 0) {
            host = host.substring(0, zone);
        }
        return "tcp and host " + host + " and port " + port;
    }

    /**
     * The interface to capture on: the one given, else the loopback interface for a loopback target or an
     * address of this machine (Linux delivers those through loopback), else the interface that owns the
     * local address the kernel's routing picks to reach the target.
     */
    public String resolveInterface() throws CaptureException {
        if (interfaceName != null) {
            return interfaceName;
        }
        try {
            if (address.isLoopbackAddress() || NetworkInterface.getByInetAddress(address) != null) {
                return loopbackName();
            }
            InetAddress local;
            try (DatagramSocket probe = new DatagramSocket()) {
                probe.connect(new InetSocketAddress(address, port));
                local = probe.getLocalAddress();
            }
            NetworkInterface nic = local == null ? null : NetworkInterface.getByInetAddress(local);
            if (nic == null) {
                throw new CaptureException(
                        CaptureException.Kind.NO_INTERFACE,
                        "capture: no interface reaches " + address.getHostAddress()
                                + "; name one with the capture interface setting (see `ip route get "
                                + address.getHostAddress() + "`)",
                        null);
            }
            return nic.getName();
        } catch (SocketException e) {
            throw new CaptureException(
                    CaptureException.Kind.NO_INTERFACE,
                    "capture: cannot find the interface that reaches " + address.getHostAddress() + ": "
                            + e.getMessage(),
                    e);
        }
    }

    private static String loopbackName() throws SocketException {
        var all = NetworkInterface.getNetworkInterfaces();
        while (all.hasMoreElements()) {
            NetworkInterface nic = all.nextElement();
            if (nic.isLoopback()) {
                return nic.getName();
            }
        }
        return "lo";
    }
}
