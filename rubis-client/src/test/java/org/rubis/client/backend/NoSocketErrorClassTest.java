package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.ChannelException;
import io.netty.channel.epoll.Epoll;
import java.net.SocketException;
import org.junit.jupiter.api.Test;
import org.rubis.format.run.ErrorClass;

/**
 * A request that gets no socket (the client's file descriptors ran out) is an {@code io} failure, whichever transport
 * or backend met it: not {@code reset} (nothing was connected, let alone reset), which a JDK SocketException of no
 * known text gets, nor {@code client-error} (no bug), which Netty epoll's ChannelException of no known cause gets.
 */
class NoSocketErrorClassTest {

    @Test
    void nioTransportsNoSocketIsIo() {
        assertEquals(ErrorClass.IO, ErrorClass.of(SocketFailures.nioNoSocket(), false));
    }

    @Test
    void epollTransportsNoSocketIsIo() {
        assumeTrue(Epoll.isAvailable(), "the epoll transport builds its own exception");
        Exception e = SocketFailures.epollNoSocket();
        assertTrue(
                String.valueOf(e.getMessage()).contains("Too many open files"),
                "Netty's text for EMFILE: " + e.getMessage());
        assertEquals(ErrorClass.IO, ErrorClass.of(e, false));
    }

    @Test
    void theBlockingBackendsNoSocketIsIo() {
        assertEquals(ErrorClass.IO, ErrorClass.of(new SocketException("Too many open files"), false));
        assertEquals(
                ErrorClass.IO, ErrorClass.of(new SocketException("Too many open files in system"), true), "ENFILE");
    }

    @Test
    void otherSocketFailuresKeepTheirClass() {
        assertEquals(ErrorClass.RESET, ErrorClass.of(new SocketException("Connection reset"), true));
        assertEquals(ErrorClass.CLIENT, ErrorClass.of(new ChannelException("Unable to create Channel"), false));
    }
}
