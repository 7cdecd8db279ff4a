package org.rubis.client.warmup;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLSocket;
import org.rubis.format.io.Tls;
import org.rubis.format.text.PageFrame;

/**
 * A throw-away HTTP/1.1 server on loopback that answers every GET with a RUBiS-like page, for the JIT
 * warm-up only: it lives for the few seconds of the warm-up, in the client's JVM, and is closed before
 * the measurement starts. It is not the embedded server (which always runs in its own JVM, so that
 * its work never shares the client's CPU and JIT during a run) and it never stands in for a target.
 *
 * <p>Its answers cover what the client's parsers meet on real targets: static pages and images with
 * a Content-Length, script pages alternately with a Content-Length and chunked (as Apache serves PHP
 * output), keep-alive, and a {@code Connection: close} on every {@value #KEEP_ALIVE_REQUESTS}th reply
 * of a connection (Apache's MaxKeepAliveRequests), so that both framings and the reconnect path are
 * compiled with the branches a run will take instead of being deoptimised on their first use.
 *
 * <p>When the run's target is HTTPS, the stub speaks TLS with the embedded server's packaged loopback
 * key ({@link Tls}): each accepted socket is layered with an SSL socket from {@link Tls#context()}, as
 * the embedded prefork server does, so that with resumption off every connection gets a fresh context
 * (full handshakes only) and with it on returning clients resume. It counts its handshakes by kind,
 * with the server's own rule ({@link Tls#handshakeKind}).
 */
final class StubServer implements AutoCloseable {

    /**
     * Replies per connection before the stub closes it, as Apache does after MaxKeepAliveRequests, but far
     * sooner: in a TPC-W run about half the requests open a connection (servers close idle ones after 5 s,
     * the mean think time is 7 s), so the connect path must be compiled as well as the request path. With 100
     * a 20,000-request warm-up made 200 connects, too few for the JIT: netty then spent 227 us p50 from its send
     * mark to the SYN of a new connection (the wire check's split, idle host). With 5, about 4,000 connects, below
     * C2's 5,000 calls; with 2, as in a TPC-W run half the requests open a connection, and netty's new connections
     * left 5 us sooner (send mark to SYN) and 10 us sooner (send side) at the median (docs/BENCHMARKS.md, 2026-11-26).
     */
    static final int KEEP_ALIVE_REQUESTS = 2;

    private static final AtomicInteger STARTED = new AtomicInteger();

    private final ServerSocket socket;
    private final Thread acceptor;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong served = new AtomicLong();
    private final Tls tls;
    private final AtomicLong fullHandshakes = new AtomicLong();
    private final AtomicLong resumedHandshakes = new AtomicLong();
    private final byte[] page;
    private final byte[] staticPage;
    private volatile boolean closed;

    private StubServer(ServerSocket socket, Tls tls) {
        this.socket = socket;
        this.tls = tls;
        this.page = Pages.scriptPage().getBytes(StandardCharsets.ISO_8859_1);
        this.staticPage = Pages.staticPage().getBytes(StandardCharsets.ISO_8859_1);
        this.acceptor = new Thread(this::accept, "rubis-warmup-stub");
        this.acceptor.setDaemon(true);
    }

    /** Binds an ephemeral port on {@code address} (loopback in every run) and starts answering plain HTTP. */
    static StubServer start(InetAddress address) throws IOException {
        return start(address, null);
    }

    /** As {@link #start(InetAddress)}, over TLS with {@code tls} (null: plain HTTP). */
    static StubServer start(InetAddress address, Tls tls) throws IOException {
        ServerSocket s = new ServerSocket();
        try {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(address, 0), 512);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        StubServer stub = new StubServer(s, tls);
        STARTED.incrementAndGet();
        stub.acceptor.start();
        return stub;
    }

    /** How many stubs this JVM has started (tests: a run with the warm-up off starts none). */
    static int startedCount() {
        return STARTED.get();
    }

    /** The base URL, e.g. {@code http://127.0.0.1:41234}, or {@code https://...} over TLS. */
    String base() {
        InetAddress a = socket.getInetAddress();
        String host = a.getHostAddress().contains(":") ? "[" + a.getHostAddress() + "]" : a.getHostAddress();
        return (tls != null ? "https://" : "http://") + host + ":" + socket.getLocalPort();
    }

    boolean tls() {
        return tls != null;
    }

    /** Completed TLS handshakes that were full (0 over plain HTTP). */
    long fullHandshakes() {
        return fullHandshakes.get();
    }

    /** Completed TLS handshakes that resumed a session (0 over plain HTTP, or with resumption off). */
    long resumedHandshakes() {
        return resumedHandshakes.get();
    }

    long served() {
        return served.get();
    }

    private void accept() {
        while (!closed) {
            Socket c;
            try {
                c = socket.accept();
            } catch (IOException e) {
                return; // closed
            }
            open.add(c);
            Thread t = new Thread(() -> serve(c), "rubis-warmup-stub-conn");
            t.setDaemon(true);
            t.start();
        }
    }

    private void serve(Socket raw) {
        long openedMillis = System.currentTimeMillis();
        try (raw) {
            raw.setTcpNoDelay(true);
            Socket c = raw;
            if (tls != null) {
                raw.setSoTimeout(30_000); // a handshake that never comes does not hold the thread past the warm-up
                SSLSocket ssl = (SSLSocket) tls.context().getSocketFactory().createSocket(raw, null, true);
                ssl.setUseClientMode(false);
                ssl.startHandshake();
                (Tls.handshakeKind(ssl.getSession(), openedMillis).equals("resumed")
                                ? resumedHandshakes
                                : fullHandshakes)
                        .incrementAndGet();
                raw.setSoTimeout(0);
                c = ssl;
            }
            InputStream in = new BufferedInputStream(c.getInputStream(), 8192);
            OutputStream out = c.getOutputStream();
            for (int n = 1; !closed; n++) {
                Request r = readRequest(in);
                if (r == null) {
                    return; // the client closed the connection
                }
                boolean last = n % KEEP_ALIVE_REQUESTS == 0 || r.close();
                out.write(reply(r.target(), n, last));
                out.flush();
                served.incrementAndGet();
                if (last) {
                    return;
                }
            }
        } catch (IOException e) {
            // the client went away, or the stub is closing
        } finally {
            open.remove(raw);
        }
    }

    /** A request head: its target and whether it asked for {@code Connection: close}. */
    private record Request(String target, boolean close) {}

    /** Reads one request head (GET, no body), or null at the end of the stream. */
    private static Request readRequest(InputStream in) throws IOException {
        StringBuilder cur = new StringBuilder(128);
        String target = null;
        boolean close = false;
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                int len = cur.length();
                if (len > 0 && cur.charAt(len - 1) == '\r') {
                    cur.setLength(len - 1);
                }
                if (cur.length() == 0) {
                    if (target != null) {
                        return new Request(target, close);
                    }
                    continue; // a stray empty line before the request line
                }
                String l = cur.toString();
                if (target == null) {
                    int a = l.indexOf(' ');
                    int z = l.lastIndexOf(' ');
                    target = a > 0 && z > a ? l.substring(a + 1, z) : "/";
                } else if (l.regionMatches(true, 0, "Connection:", 0, 11)
                        && l.toLowerCase(Locale.ROOT).contains("close")) {
                    close = true;
                }
                cur.setLength(0);
            } else {
                cur.append((char) b);
            }
        }
        return null;
    }

    /** Static files and images with a Content-Length; script pages alternately chunked. */
    private byte[] reply(String target, int n, boolean last) {
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        boolean image = path.endsWith(".jpg") || path.endsWith(".gif");
        boolean script = !image && !path.endsWith(".html") && !path.equals("/");
        byte[] body = image ? Pages.IMAGE : script ? page : staticPage;
        String type = image ? "image/jpeg" : "text/html";
        String conn = last ? "close" : "keep-alive";
        String head =
                "HTTP/1.1 200 OK\r\nDate: Sun, 22 Nov 2026 08:00:00 GMT\r\nServer: rubis-client-warmup-stub\r\nContent-Type: "
                        + type + "\r\nConnection: " + conn + "\r\n";
        if (script && n % 2 == 0) {
            int half = body.length / 2;
            String h = head + "Transfer-Encoding: chunked\r\n\r\n";
            String c1 = Integer.toHexString(half) + "\r\n";
            String c2 = "\r\n" + Integer.toHexString(body.length - half) + "\r\n";
            String end = "\r\n0\r\n\r\n";
            return concat(h, body, 0, half, c1, c2, end);
        }
        byte[] h = (head + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[h.length + body.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        return all;
    }

    private static byte[] concat(String head, byte[] body, int from, int half, String c1, String c2, String end) {
        ByteArrayOutputStream o = new ByteArrayOutputStream(head.length() + body.length + 64);
        o.writeBytes(head.getBytes(StandardCharsets.ISO_8859_1));
        o.writeBytes(c1.getBytes(StandardCharsets.ISO_8859_1));
        o.write(body, from, half);
        o.writeBytes(c2.getBytes(StandardCharsets.ISO_8859_1));
        o.write(body, half, body.length - half);
        o.writeBytes(end.getBytes(StandardCharsets.ISO_8859_1));
        return o.toByteArray();
    }

    @Override
    public void close() {
        closed = true;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket c : open) {
            try {
                c.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        try {
            acceptor.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The pages the stub serves: shaped like the embedded server's (header with images, item table, page links). */
    static final class Pages {

        // The page frame is the embedded server's (rubis-format's PageFrame): the warm-up needs pages of the
        // same shape; the client never runs the server's application code (the stub borrows only its TLS key).

        /** A small JPEG-sized body for images (only counted by the client). */
        static final byte[] IMAGE = new byte[2048];

        private Pages() {}

        private static StringBuilder begin(String title) {
            return PageFrame.begin(new StringBuilder(8192), title);
        }

        private static String end(StringBuilder b) {
            return PageFrame.end(b, "RUBiS warm-up stub (rubis-client)");
        }

        /** A search result of 20 items with links, page links and the form values the client extracts (about 5 KB). */
        static String scriptPage() {
            StringBuilder b = begin("Items in category");
            b.append("<h2>Items in category Antiques</h2>\n<TABLE border=\"1\" summary=\"List of items\">\n")
                    .append("<THEAD><TR><TH>Designation<TH>Price<TH>Bids<TH>End Date<TH>Bid Now</THEAD>\n<TBODY>\n");
            for (int i = 0; i < 20; i++) {
                int id = 1000 + 37 * i;
                b.append("<TR><TD><a href=\"/PHP/ViewItem.php?itemId=")
                        .append(id)
                        .append("\">RUBiS automatically generated item #")
                        .append(id)
                        .append("</a>\n<TD>")
                        .append(10 + i)
                        .append(".50\n<TD>")
                        .append(i % 7)
                        .append("\n<TD>2026-12-0")
                        .append(1 + i % 9)
                        .append(" 12:00:00\n<TD><a href=\"/PHP/PutBidAuth.php?itemId=")
                        .append(id)
                        .append("\"><IMG SRC=\"/PHP/bid_now.jpg\" height=22 width=90></a>\n");
            }
            b.append(
                            "</TBODY></TABLE>\n<p><CENTER><a href=\"/PHP/SearchItemsByCategory.php?category=1&categoryName=Antiques&page=0&nbOfItems=20\">"
                                    + "Previous page</a>\n&nbsp&nbsp&nbsp<a href=\"/PHP/SearchItemsByCategory.php?category=1&categoryName=Antiques&page=2&nbOfItems=20\">"
                                    + "Next page</a>\n</CENTER>\n")
                    .append("<p>Seller: <a href=\"/PHP/ViewUserInfo.php?userId=42\">user42</a>\n")
                    .append(
                            "<form action=\"/PHP/StoreBid.php\" method=POST>\n<input type=hidden name=userId value=42>\n")
                    .append("<input type=hidden name=itemId value=1000>\n<input type=hidden name=minBid value=11.5>\n")
                    .append("<input type=hidden name=maxQty value=3>\n<input type=hidden name=to value=42>\n</form>\n");
            return end(b);
        }

        /** A static page (home, browse, register forms: a couple of KB). */
        static String staticPage() {
            StringBuilder b = begin("Home page");
            b.append(
                    "<h2>Welcome to RUBiS's home page !</h2>\n<p>RUBiS is an auction site prototype modelled after eBay.</p>\n<ul>\n");
            for (String s :
                    new String[] {"BrowseCategories", "BrowseRegions", "AboutMe", "SellItemForm", "RegisterUser"}) {
                b.append("<li><a href=\"/PHP/")
                        .append(s)
                        .append(".php\">")
                        .append(s)
                        .append("</a></li>\n");
            }
            b.append("</ul>\n");
            for (int i = 0; i < 12; i++) {
                b.append(
                        "<p>Browse items and place bids: all pages of this site are generated; this text stands for the static part of a page.</p>\n");
            }
            return end(b);
        }
    }
}
