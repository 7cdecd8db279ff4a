package org.rubis.analysis.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.wire.WireCapture;
import org.rubis.analysis.wire.WireCheck;

/**
 * The wire package's pcap reader and TCP/HTTP reconstruction fuzzed: whatever the bytes of a capture
 * file, reading it either succeeds (a cut file is reported as truncated) or throws
 * {@link AnalysisException} with a one-line message; nothing else may escape, no input may take more
 * than {@link #LIMIT_S} seconds (a hang), and a record claiming a huge length must not make the
 * reader allocate it. {@code pcapFile} feeds the raw bytes (behind a valid global header when the input
 * says so, so that the fuzzer reaches the records); {@code wireCheck} writes well-formed packets with
 * fuzzed fields on two connections of a small run directory and runs the whole {@link WireCheck}
 * (join with requests.csv and the server log, wire.csv, the JSON). Replayed from
 * {@code PcapFuzzTestInputs/} in the normal suite; {@code JAZZER_FUZZ=1} fuzzes (docs/FAULTS.md).
 */
class PcapFuzzTest {

    /** Longer than any input takes (milliseconds) even on a loaded machine; more is a hang. */
    static final int LIMIT_S = 20;

    private static final int[] MAGICS = {0xa1b2c3d4, 0xa1b23c4d, 0xd4c3b2a1, 0x4d3cb2a1, 0x0a0d0d0a};
    private static final int[] LINKS = {1, 113, 276, 0, 12, 101, 14, 108};
    private static final String CLIENT = "10.0.0.1";
    private static final String SERVER = "10.0.0.2";
    private static final String[] PAYLOADS = {
        "GET /PHP/index.php HTTP/1.1\r\nHost: s\r\n\r\n",
        "GET /PHP/BrowseCategories.php?r=1 HTTP/1.1\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
        "HTTP/1.1 503 x\r\n",
        "HTTP/",
        "GET ",
        "POST /PHP/x HTTP/1.0\r\n",
        ""
    };

    private static final Path DIR = tempDir();
    private static final ExecutorService WORKER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "pcap-fuzz");
        t.setDaemon(true);
        return t;
    });

    private static Path tempDir() {
        try {
            Path d = Files.createTempDirectory("rubis-fuzz-pcap");
            Files.createDirectories(d.resolve("server"));
            // requests.csv: lines the capture's requests can join to (same connection id and path), and one that cannot
            Files.writeString(
                    d.resolve("requests.csv"),
                    "session_id,user,request_index,state,path,phase,intended_send_epoch_ns,"
                            + "send_epoch_ns,ttfb_ns,response_ns,bytes,status,error,connection_id,new_connection,backend,images,image_bytes\n"
                            + "1,u,0,Home,/PHP/index.php,run,1000,1000,500000,900000,5,200,," + CLIENT
                            + ":40000,true,netty,0,0\n"
                            + "1,u,1,Browse,/PHP/BrowseCategories.php?r=1,run,2000,2000,400000,800000,5,200,," + CLIENT
                            + ":40000,false,netty,0,0\n"
                            + "2,u,0,Home,/PHP/index.php,run,3000,3000,-5,9223372036854775807,5,200,," + CLIENT
                            + ":40001,true,pooled,0,0\n"
                            + "3,u,0,Home,/PHP/index.php,run,4000,4000,1,1,0,0,refused,,true,netty,0,0\n",
                    StandardCharsets.UTF_8);
            Files.writeString(
                    d.resolve("server/requests.csv"),
                    "connection_id,arrival_epoch_ns,completion_epoch_ns,service_ns,interaction,status,"
                            + "bytes,path,fault\n" + CLIENT + ":40000,1,2,300000,Home,200,5,/PHP/index.php,\n",
                    StandardCharsets.UTF_8);
            Files.writeString(
                    d.resolve("server/connections.csv"),
                    "connection_id,open_epoch_ns,close_epoch_ns,requests,closed_by\n" + CLIENT
                            + ":40000,1,2,2,client\n",
                    StandardCharsets.UTF_8);
            Files.writeString(
                    d.resolve("capture-stats.json"),
                    "{\"kernel_drops\":0,\"interface_drops\":0}",
                    StandardCharsets.UTF_8);
            d.toFile().deleteOnExit();
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Arbitrary bytes as a pcap file, through the reader and the TCP/HTTP reconstruction. */
    @FuzzTest(maxDuration = "90s")
    void pcapFile(FuzzedDataProvider in) throws IOException {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        if (in.consumeBoolean()) { // a valid global header, so that the fuzzer spends its time on the records
            ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.BIG_ENDIAN);
            h.putInt(in.pickValue(MAGICS));
            boolean little = in.consumeBoolean();
            ByteBuffer rest = ByteBuffer.allocate(20).order(little ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
            rest.putShort((short) 2)
                    .putShort((short) 4)
                    .putInt(0)
                    .putInt(0)
                    .putInt(in.consumeInt())
                    .putInt(in.pickValue(LINKS));
            file.writeBytes(h.array());
            file.writeBytes(rest.array());
        }
        file.writeBytes(in.consumeRemainingAsBytes());
        Path pcap = Files.write(DIR.resolve("raw.pcap"), file.toByteArray());
        bounded(() -> {
            WireCapture c = WireCapture.read(pcap);
            c.retransmissions();
            c.gaps();
        });
    }

    /** Well-formed Ethernet/IPv4/TCP packets with fuzzed fields, through the whole wire check of a small run directory. */
    @FuzzTest(maxDuration = "90s")
    void wireCheck(FuzzedDataProvider in) throws IOException {
        ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(0xa1b23c4d)
                .putShort((short) 2)
                .putShort((short) 4)
                .putInt(0)
                .putInt(0)
                .putInt(65535)
                .putInt(1);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        file.writeBytes(h.array());
        long ts = 1_700_000_000_000_000_000L;
        int packets = 0;
        while (in.remainingBytes() > 0 && packets++ < 200) {
            boolean fromClient = in.consumeBoolean();
            int clientPort = in.consumeBoolean() ? 40000 : 40001;
            ts += in.consumeBoolean() ? in.consumeLong() : in.consumeInt(0, 2_000_000);
            int flags = in.consumeInt(0, 0x3f) | 0x10;
            long seq = in.consumeBoolean() ? in.consumeInt() : 1000 + in.consumeInt(0, 5000);
            byte[] payload = in.consumeBoolean()
                    ? PAYLOADS[in.consumeInt(0, PAYLOADS.length - 1)].getBytes(StandardCharsets.ISO_8859_1)
                    : in.consumeBytes(in.consumeInt(0, 300));
            int ipLenDelta = in.consumeBoolean() ? in.consumeInt(-60, 60) : 0;
            int origDelta = in.consumeBoolean() ? in.consumeInt() : 0;
            int cut = in.consumeBoolean() ? in.consumeInt(0, 80) : -1;
            int ipLen = 40 + payload.length;
            ByteBuffer f = ByteBuffer.allocate(14 + ipLen).order(ByteOrder.BIG_ENDIAN);
            f.put(new byte[12]).putShort((short) 0x0800);
            f.put((byte) 0x45)
                    .put((byte) 0)
                    .putShort((short) (ipLen + ipLenDelta))
                    .putShort((short) 0)
                    .putShort((short) 0x4000)
                    .put((byte) 64)
                    .put((byte) 6)
                    .putShort((short) 0)
                    .put(ip(fromClient ? CLIENT : SERVER))
                    .put(ip(fromClient ? SERVER : CLIENT));
            f.putShort((short) (fromClient ? clientPort : 80))
                    .putShort((short) (fromClient ? 80 : clientPort))
                    .putInt((int) seq)
                    .putInt(0)
                    .put((byte) 0x50)
                    .put((byte) flags)
                    .putShort((short) 65535)
                    .putInt(0)
                    .put(payload);
            byte[] frame = f.array();
            int caplen = cut >= 0 ? Math.min(cut, frame.length) : frame.length;
            ByteBuffer r = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            r.putInt((int) Long.divideUnsigned(ts, 1_000_000_000L))
                    .putInt((int) Long.remainderUnsigned(ts, 1_000_000_000L))
                    .putInt(caplen)
                    .putInt(frame.length + origDelta);
            file.writeBytes(r.array());
            file.write(frame, 0, caplen);
        }
        Path pcap = Files.write(DIR.resolve("capture.pcap"), file.toByteArray());
        bounded(() -> WireCheck.run(new RunDirectory(DIR), pcap).toJson(JsonNodeFactory.instance.objectNode()));
    }

    /** Runs {@code work} with a time limit; only a one-line AnalysisException may escape it. */
    private static void bounded(Runnable work) {
        Future<?> f = WORKER.submit(work);
        try {
            f.get(LIMIT_S, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new AssertionError("no result after " + LIMIT_S + " s: a hang");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof AnalysisException a) {
                if (a.getMessage() == null
                        || a.getMessage().isBlank()
                        || a.getMessage().contains("\n")) {
                    throw new AssertionError("not a one-line message: " + a.getMessage(), a);
                }
                return;
            }
            if (c instanceof Error err) {
                throw err; // OutOfMemoryError, AssertionError: the finding itself
            }
            throw new AssertionError("not an AnalysisException: " + c, c);
        }
    }

    private static byte[] ip(String dotted) {
        String[] p = dotted.split("\\.");
        return new byte[] {
            (byte) Integer.parseInt(p[0]),
            (byte) Integer.parseInt(p[1]),
            (byte) Integer.parseInt(p[2]),
            (byte) Integer.parseInt(p[3])
        };
    }
}
