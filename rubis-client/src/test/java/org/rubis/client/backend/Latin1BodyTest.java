package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The netty backend's body decoding without a temporary array per reply gives Netty's own text, byte for byte. */
class Latin1BodyTest {

    @Test
    void compositeBodiesOfEverySizeDecodeAsNettyDoes() {
        for (int size : new int[] {0, 1, 1023, 1025, 2042, 16 * 1024, 16 * 1024 + 1, 100_000, (1 << 20) + 7}) {
            CompositeByteBuf body = Unpooled.compositeBuffer(Integer.MAX_VALUE);
            try {
                byte[] all = new byte[size];
                for (int i = 0; i < size; i++) {
                    all[i] = (byte) (i * 31 + 7); // every byte value, high bit included
                }
                for (int at = 0; at < size; at += 1500) { // received in 1,500-byte pieces, like segments
                    ByteBuf piece = Unpooled.directBuffer(1500);
                    piece.writeBytes(all, at, Math.min(1500, size - at));
                    body.addComponent(true, piece);
                }
                body.skipBytes(Math.min(size, 3)); // a reader index not at 0
                assertEquals(body.toString(StandardCharsets.ISO_8859_1), Latin1Text.of(body), "size " + size);
            } finally {
                body.release();
            }
        }
    }
}
