package org.rubis.lab.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.rubis.lab.host.HostProgram;

/**
 * The server {@code bench rate} measures against: lighttpd, pinned to one core, serving a static 2 KB page for
 * every path and keeping each connection for the whole run, so that what differs between the clients is the client.
 */
final class LighttpdPage {

    private final Process process;
    private final int port;
    private final Path output;

    private LighttpdPage(Process process, int port, Path output) {
        this.process = process;
        this.port = port;
        this.output = output;
    }

    /** Writes the page and lighttpd's configuration under {@code dir} and starts lighttpd on a free loopback port. */
    static LighttpdPage start(Path lighttpd, Path taskset, String core, Path dir) throws IOException {
        Path root = dir.resolve("www").toAbsolutePath();
        Files.createDirectories(root);
        StringBuilder page = new StringBuilder("<html><head><title>static</title></head><body>\n");
        while (page.length() < 2000) {
            page.append("<p>a static page of 2 KB for the request-rate benchmark</p>\n");
        }
        Files.writeString(
                root.resolve("page.html"), page.append("</body></html>\n").toString(), StandardCharsets.ISO_8859_1);
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path conf = dir.resolve("lighttpd.conf").toAbsolutePath();
        // lighttpd 1.4: max-keep-alive-requests = 0 DISABLES keep-alive (every reply says Connection: close);
        // a large count keeps each connection for the whole run, as wrk and the client expect
        Files.writeString(
                conf,
                "server.document-root = \"" + root + "\"\nserver.port = " + port
                        + "\nserver.bind = \"127.0.0.1\"\n"
                        + "server.modules = ( \"mod_rewrite\" )\nurl.rewrite-once = ( \"^/.*\" => \"/page.html\" )\n"
                        + "server.max-keep-alive-requests = 1000000\nserver.max-keep-alive-idle = 600\n"
                        + "server.max-connections = 4096\n"
                        + "server.errorlog = \"" + dir.toAbsolutePath().resolve("lighttpd-error.log") + "\"\n",
                StandardCharsets.ISO_8859_1);
        List<String> command =
                List.of(taskset.toString(), "-c", core, lighttpd.toString(), "-D", "-f", conf.toString());
        Path output = dir.resolve("lighttpd.out");
        return new LighttpdPage(HostProgram.start(command, output), port, output);
    }

    int port() {
        return port;
    }

    /** The base URL the clients request (any path gives the page). */
    String base() {
        return "http://127.0.0.1:" + port;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Where lighttpd's own output went. */
    Path output() {
        return output;
    }

    void stop() throws InterruptedException {
        process.destroy();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
