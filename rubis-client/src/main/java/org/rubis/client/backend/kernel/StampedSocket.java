package org.rubis.client.backend.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;

/**
 * One non-blocking TCP connection of the kernel backend, with the kernel's software time stamps on: every read
 * returns the receive stamp of the last segment it read ({@code SCM_TIMESTAMPING}), every send's last byte gets a
 * transmit stamp on the socket's error queue, numbered by byte offset ({@code SOF_TIMESTAMPING_OPT_ID}), which
 * {@link #drainErrorQueue} reads. Everything it calls goes through its {@link KernelLoop}'s preallocated buffers
 * and runs on that loop's thread; it allocates nothing per read or write (a write the kernel could not take whole
 * keeps its rest in an array, the one exception, and a rare one for a request of a few hundred bytes).
 *
 * <p>Stamps are mapped to the run's clock ({@link ClockAnchor}) as they are read. The transmit stamps of the
 * request being sent are matched by offset: {@link #txFirstNano()} is the stamp of the send that carried the
 * request's first byte, {@link #txLastNano()} the one of its last byte.
 */
public final class StampedSocket {

    /** What happens on the connection, called on the loop's thread. */
    public interface Handler {
        /** The connect completed ({@code errno} 0) or failed with {@code errno}. */
        void connected(int errno);

        /**
         * {@code length} bytes at {@code a[0]} (valid during the call only) were read; {@code rxNano} is the receive
         * stamp of the last segment they came in, on the run's clock (0: the kernel gave none).
         */
        void read(byte[] a, int length, long rxNano);

        /** The peer closed its side: no more bytes. */
        void end();

        /** A read or write failed with {@code errno} (a reset, a broken pipe). */
        void failed(int errno);
    }

    private final KernelLoop loop;
    private final Handler handler;
    private int fd = -1;
    private boolean connecting;
    private int interest;
    /** Bytes handed to the kernel since the stamps were turned on: the next byte's OPT_ID offset. */
    private long sent;
    /** The request in progress: the offsets of its first and last bytes, -1 before one. */
    private long requestFirst = -1;

    private long requestLast = -1;
    private long txFirst;
    private long txLast;
    /** The rest of a write the kernel did not take whole, or null. */
    private byte[] unsent;

    private int unsentAt;
    private int unsentEnd;
    /** Transmit stamps read off the error queue, and those that matched no request byte. */
    private long txStamps;

    StampedSocket(KernelLoop loop, Handler handler) {
        this.loop = loop;
        this.handler = handler;
    }

    /**
     * Opens the socket and starts connecting to {@code target} (from {@code source}, when not null). Returns 0, or
     * the errno of a failure before any packet left (no descriptor, an address refused): the handler is not called
     * then.
     */
    public int connect(InetSocketAddress target, InetAddress source) {
        Linux.Errno e = loop.errno;
        InetAddress a = target.getAddress();
        boolean v6 = a instanceof Inet6Address;
        int s = Linux.socket(
                e, v6 ? Linux.AF_INET6 : Linux.AF_INET, Linux.SOCK_STREAM | Linux.SOCK_NONBLOCK | Linux.SOCK_CLOEXEC);
        if (s < 0) {
            return e.value();
        }
        fd = s;
        if (Linux.setInt(e, s, Linux.IPPROTO_TCP, Linux.TCP_NODELAY, 1) < 0) {
            return closeWith(e.value());
        }
        if (source != null) {
            int len = sockaddr(loop.address, new InetSocketAddress(source, 0).getAddress(), 0);
            if (Linux.bind(e, s, loop.address, len) < 0) {
                return closeWith(e.value());
            }
        }
        int len = sockaddr(loop.address, a, target.getPort());
        int r = Linux.connect(e, s, loop.address, len);
        int err = r < 0 ? e.value() : 0;
        if (r < 0 && err != Linux.EINPROGRESS) {
            return closeWith(err);
        }
        connecting = true;
        interest = Linux.EPOLLOUT;
        int add = loop.add(s, this, interest);
        if (add != 0) {
            return closeWith(add);
        }
        return 0;
    }

    private int closeWith(int errno) {
        Linux.close(loop.errno, fd);
        fd = -1;
        return errno;
    }

    /** Writes a sockaddr_in(6) for {@code a}:{@code port} at {@code into}; returns its length. */
    static int sockaddr(MemorySegment into, InetAddress a, int port) {
        into.fill((byte) 0);
        byte[] b = a.getAddress();
        short netPort = (short) (((port & 0xff) << 8) | ((port >> 8) & 0xff));
        if (a instanceof Inet4Address) {
            into.set(ValueLayout.JAVA_SHORT_UNALIGNED, 0, (short) Linux.AF_INET);
            into.set(ValueLayout.JAVA_SHORT_UNALIGNED, 2, netPort);
            MemorySegment.copy(b, 0, into, ValueLayout.JAVA_BYTE, 4, 4);
            return 16;
        }
        into.set(ValueLayout.JAVA_SHORT_UNALIGNED, 0, (short) Linux.AF_INET6);
        into.set(ValueLayout.JAVA_SHORT_UNALIGNED, 2, netPort);
        MemorySegment.copy(b, 0, into, ValueLayout.JAVA_BYTE, 8, 16);
        if (a instanceof Inet6Address v6) {
            into.set(Linux.INT, 24, v6.getScopeId());
        }
        return 28;
    }

    /** The loop saw {@code events} on the socket. */
    void ready(int events) {
        if (fd < 0) {
            return;
        }
        if ((events & Linux.EPOLLERR) != 0) {
            drainErrorQueue();
        }
        if (connecting) {
            if ((events & (Linux.EPOLLOUT | Linux.EPOLLERR | Linux.EPOLLHUP)) == 0) {
                return;
            }
            int err = Linux.getInt(loop.errno, fd, Linux.SOL_SOCKET, Linux.SO_ERROR);
            if (err == 0 && (events & Linux.EPOLLOUT) == 0) {
                return; // an error-queue event while connecting; the connect is still in progress
            }
            connecting = false;
            if (err != 0) {
                handler.connected(err < 0 ? -1 - err : err);
                return;
            }
            int on = Linux.setInt(loop.errno, fd, Linux.SOL_SOCKET, Linux.SO_TIMESTAMPING, Linux.TIMESTAMPING);
            if (on < 0) {
                handler.connected(loop.errno.value());
                return;
            }
            sent = 0;
            interest(Linux.EPOLLIN | Linux.EPOLLRDHUP);
            handler.connected(0);
            return;
        }
        if ((events & Linux.EPOLLOUT) != 0 && unsent != null) {
            flush();
            if (fd < 0) {
                return;
            }
        }
        if ((events & (Linux.EPOLLIN | Linux.EPOLLHUP | Linux.EPOLLRDHUP | Linux.EPOLLERR)) != 0) {
            readAvailable(events);
        }
    }

    private void interest(int events) {
        if (events != interest && fd >= 0) {
            interest = events;
            loop.modify(fd, events);
        }
    }

    /**
     * Starts a request: its {@code length} bytes at {@code a[0]} are sent now, what the kernel does not take at once
     * as soon as it can. Returns 0, or the errno of a failed send (the handler is not called for it).
     */
    public int write(byte[] a, int length) {
        requestFirst = sent;
        requestLast = sent + length - 1;
        txFirst = 0;
        txLast = 0;
        int n = Math.min(length, (int) loop.out.byteSize());
        MemorySegment.copy(a, 0, loop.out, ValueLayout.JAVA_BYTE, 0, n);
        long w = Linux.send(loop.errno, fd, loop.out, n, Linux.MSG_DONTWAIT | Linux.MSG_NOSIGNAL);
        if (w < 0) {
            int err = loop.errno.value();
            if (err != Linux.EAGAIN) {
                return err;
            }
            w = 0;
        }
        sent += w;
        if (w < length) {
            unsent = Arrays.copyOfRange(a, (int) w, length);
            unsentAt = 0;
            unsentEnd = unsent.length;
            interest(Linux.EPOLLIN | Linux.EPOLLRDHUP | Linux.EPOLLOUT);
        }
        return 0;
    }

    private void flush() {
        while (unsent != null) {
            int n = Math.min(unsentEnd - unsentAt, (int) loop.out.byteSize());
            MemorySegment.copy(unsent, unsentAt, loop.out, ValueLayout.JAVA_BYTE, 0, n);
            long w = Linux.send(loop.errno, fd, loop.out, n, Linux.MSG_DONTWAIT | Linux.MSG_NOSIGNAL);
            if (w < 0) {
                int err = loop.errno.value();
                if (err == Linux.EAGAIN) {
                    return;
                }
                unsent = null;
                interest(Linux.EPOLLIN | Linux.EPOLLRDHUP);
                handler.failed(err);
                return;
            }
            sent += w;
            unsentAt += (int) w;
            if (unsentAt == unsentEnd) {
                unsent = null;
                interest(Linux.EPOLLIN | Linux.EPOLLRDHUP);
            }
        }
    }

    /**
     * Reads what is there. While no byte of a reply was read yet ({@link #awaitingFirstByte}), the first read takes
     * one byte, so that its stamp is that of the segment carrying the reply's first byte, not of a later one read
     * with it; then it reads on. Reads until the kernel has no more (EAGAIN), the peer closed or the handler closed
     * the socket.
     */
    private void readAvailable(int events) {
        boolean first = awaitingFirstByte;
        for (int i = 0; i < 64 && fd >= 0; i++) {
            long max = first ? 1 : loop.in.byteSize();
            long n = loop.receive(fd, max, 0);
            if (n < 0) {
                int err = (int) -n;
                if (err == Linux.EAGAIN) {
                    return;
                }
                handler.failed(err);
                return;
            }
            if (n == 0) {
                handler.end();
                return;
            }
            first = false;
            awaitingFirstByte = false;
            MemorySegment.copy(loop.in, ValueLayout.JAVA_BYTE, 0, loop.heapIn, 0, (int) n);
            handler.read(loop.heapIn, (int) n, loop.anchor.toNano(loop.lastStamp));
            if (n < max && (events & Linux.EPOLLRDHUP) == 0) {
                return; // all there was; the next event brings more
            }
        }
    }

    /** True until the first byte of the current reply was read; set by {@link #expectReply}. */
    private boolean awaitingFirstByte;

    /** The next read starts a reply: it is read one byte first ({@link #readAvailable}). */
    public void expectReply() {
        awaitingFirstByte = true;
    }

    /** Reads every message on the error queue (transmit stamps): left to fill, it would stop the stamps. */
    public void drainErrorQueue() {
        for (int i = 0; i < 1024 && fd >= 0; i++) {
            long n = loop.receive(fd, 0, Linux.MSG_ERRQUEUE);
            if (n < 0) {
                return; // EAGAIN: empty
            }
            if (loop.lastTxId >= 0 && loop.lastTxStamp != 0) {
                txStamps++;
                long at = loop.anchor.toNano(loop.lastTxStamp);
                long id = loop.lastTxId;
                if (requestFirst >= 0) {
                    if (txFirst == 0 && id >= requestFirst) {
                        txFirst = at;
                    }
                    if (txLast == 0 && id >= requestLast) {
                        txLast = at;
                    }
                }
            }
        }
    }

    /** The transmit stamp of the request's first byte on the run's clock; 0 when none came (yet). */
    public long txFirstNano() {
        return txFirst;
    }

    /** The transmit stamp of the request's last byte on the run's clock; 0 when none came (yet). */
    public long txLastNano() {
        return txLast;
    }

    /** Transmit stamps read so far on this socket. */
    public long txStamps() {
        return txStamps;
    }

    /** True while the connect is in progress. */
    public boolean connecting() {
        return connecting;
    }

    public boolean isOpen() {
        return fd >= 0;
    }

    /** The local address and port, "" when unknown. */
    public String localAddress() {
        if (fd < 0) {
            return "";
        }
        return loop.localAddress(fd);
    }

    /** Closes the socket (idempotent); no handler call follows. */
    public void close() {
        if (fd >= 0) {
            loop.remove(fd);
            Linux.close(loop.errno, fd);
            fd = -1;
        }
        unsent = null;
        connecting = false;
    }
}
