package org.rubis.client.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The capture's settings without libpcap: filter, interface choice, validation, packet count of a file. */
class CaptureSpecTest {

    @TempDir
    Path tmp;

    @Test
    void filterUsesTheNumericAddressAndPort() throws Exception {
        CaptureSpec spec = CaptureSpec.forTarget("localhost", 8080);
        assertTrue(
                spec.filter().matches("tcp and host (127\\.0\\.0\\.1|0:0:0:0:0:0:0:1) and port 8080"), spec.filter());
        assertEquals(CaptureSpec.DEFAULT_SNAP_LENGTH, spec.snapLength());
        assertEquals(
                "tcp and host 127.0.0.7 and port 1",
                CaptureSpec.forTarget("127.0.0.7", 1).filter());
    }

    @Test
    void loopbackTargetsAreCapturedOnTheLoopbackInterface() throws Exception {
        String lo = CaptureSpec.forTarget("127.0.0.1", 80).resolveInterface();
        assertTrue(NetworkInterface.getByName(lo).isLoopback(), lo);
        assertEquals(lo, CaptureSpec.forTarget("127.3.4.5", 80).resolveInterface());
        assertEquals(
                "eth9",
                CaptureSpec.forTarget("127.0.0.1", 80).withInterface("eth9").resolveInterface());
    }

    @Test
    void badSettingsAreRejected() {
        InetAddress a = InetAddress.getLoopbackAddress();
        assertThrows(IllegalArgumentException.class, () -> new CaptureSpec(a, 70000, null, 256, 1 << 26));
        assertThrows(IllegalArgumentException.class, () -> new CaptureSpec(a, 80, null, 10, 1 << 26));
        assertThrows(IllegalArgumentException.class, () -> new CaptureSpec(a, 80, null, 256, 1000));
        assertThrows(IllegalArgumentException.class, () -> new CaptureSpec(a, 80, "lo; rm -rf /", 256, 1 << 26));
    }

    @Test
    void countsTheRecordsOfAPcapFile() throws Exception {
        byte[] header = {
            (byte) 0x4d, 0x3c, (byte) 0xb2, (byte) 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0
        };
        byte[] record = {0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 1, 2, 3};
        Path f = tmp.resolve("x.pcap");
        Files.write(f, concat(header, record, record, new byte[] {1, 2}));
        assertEquals(
                new PacketCapture.PcapCount(2, false),
                PacketCapture.countPackets(f),
                "two whole records, a cut one not counted, the file not whole");
        Files.write(f, concat(header, record, record));
        assertEquals(new PacketCapture.PcapCount(2, true), PacketCapture.countPackets(f));
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) n += p.length;
        byte[] out = new byte[n];
        int o = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, o, p.length);
            o += p.length;
        }
        return out;
    }
}
