import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.*;
import io.netty.channel.*;
import io.netty.channel.epoll.*;
import java.io.*;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The least a Netty client can do per request: count the reply's bytes (its size known beforehand), write the next
 * request; no parsing, no session, no log. Measures what the transport alone costs on a host, beside wrk (issue 14,
 * docs/BENCHMARKS.md, `bench rate`). Not part of the build. With lighttpd from `bench rate` on
 * core 1 (its lighttpd.conf under the bench's --out):
 *
 *   J=/usr/lib/jvm/temurin-25-jdk-amd64/bin; U=~/.m2/repository/io/netty
 *   CP=rubis-cli/target/rubis-client.jar:$U/netty-transport-classes-io_uring/4.2.7.Final/netty-transport-classes-io_uring-4.2.7.Final.jar:$U/netty-transport-native-io_uring/4.2.7.Final/netty-transport-native-io_uring-4.2.7.Final-linux-x86_64.jar
 *   $J/javac -cp $CP -d /tmp/mini docs/experiments/MiniNetty.java
 *   taskset -c 0 $J/java -cp $CP:/tmp/mini MiniNetty PORT 64 10 epoll   # or uring (Netty's io_uring transport)
 *
 * (the io_uring jars come with `mvn dependency:copy -Dartifact=io.netty:netty-transport-native-io_uring:4.2.7.Final:jar:linux-x86_64`
 * and `...:netty-transport-classes-io_uring:4.2.7.Final`).
 */
public class MiniNetty {
    static long count;
    public static void main(String[] a) throws Exception {
        int port = Integer.parseInt(a[0]); int conns = Integer.parseInt(a[1]); int secs = Integer.parseInt(a[2]);
        byte[] req = ("GET /page.html HTTP/1.1\r\nUser-Agent: rubis-client/0.1\r\nAccept: */*\r\nHost: 127.0.0.1:" + port + "\r\nConnection: keep-alive\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        int size;
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.getOutputStream().write(req);
            InputStream in = s.getInputStream();
            byte[] buf = new byte[65536]; int n = 0;
            s.setSoTimeout(500);
            try { int r; while ((r = in.read(buf, n, buf.length - n)) > 0) n += r; } catch (IOException e) {}
            size = n;
        }
        System.out.println("reply size " + size);
        ByteBuf shared = Unpooled.unreleasableBuffer(Unpooled.directBuffer(req.length).writeBytes(req));
        boolean uring = a.length > 3 && a[3].equals("uring");
        if (uring && !io.netty.channel.uring.IoUring.isAvailable()) { io.netty.channel.uring.IoUring.unavailabilityCause().printStackTrace(); }
        EventLoopGroup g = uring ? new MultiThreadIoEventLoopGroup(1, io.netty.channel.uring.IoUringIoHandler.newFactory()) : new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        Bootstrap b = new Bootstrap().group(g).channel(uring ? io.netty.channel.uring.IoUringSocketChannel.class : EpollSocketChannel.class).option(ChannelOption.TCP_NODELAY, true).option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(16384))
            .handler(new ChannelInitializer<Channel>() { protected void initChannel(Channel c) { c.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                int got;
                @Override public void channelActive(ChannelHandlerContext ctx) { ctx.writeAndFlush(shared.duplicate()); }
                @Override public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    ByteBuf buf = (ByteBuf) msg;
                    got += buf.readableBytes();
                    buf.release();
                    if (got >= size) { got -= size; count++; ctx.writeAndFlush(shared.duplicate()); }
                }
            }); } });
        for (int i = 0; i < conns; i++) b.connect("127.0.0.1", port).sync();
        Thread.sleep(5000);
        long c0 = count; long[] t0 = cpu();
        Thread.sleep(secs * 1000L);
        long c1 = count; long[] t1 = cpu();
        double n = c1 - c0; // clock ticks are 10 ms: ticks * 10,000 / requests = us per request
        System.out.printf("requests %d in %ds = %.0f/s, CPU %.2f us/req (user %.2f, kernel %.2f)%n", c1 - c0, secs, n / secs,
                (t1[0] + t1[1] - t0[0] - t0[1]) * 10000.0 / n, (t1[0] - t0[0]) * 10000.0 / n, (t1[1] - t0[1]) * 10000.0 / n);
        System.exit(0);
    }
    /** This process's user and system CPU so far, in clock ticks (utime and stime of /proc/self/stat). */
    static long[] cpu() throws Exception { String[] f = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/stat")).split("\\) ")[1].split(" "); return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])}; }
}
