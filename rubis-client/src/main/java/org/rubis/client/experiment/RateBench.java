package org.rubis.client.experiment;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rubis.client.config.Durations;
import org.rubis.client.process.ChildJvm;
import org.rubis.client.process.EmbeddedServerProcess;
import org.rubis.client.report.SummaryFile;

/**
 * {@code bench rate}: client CPU per request at the highest rate it can drive. A static 2 KB page
 * served by lighttpd (every path rewritten to it) pinned to one core, the client pinned to the
 * other (taskset), closed users with no think time; the client logs every request as in any run.
 * wrk and httperf, when installed, drive the same page from the same core for comparison. The
 * tools are only used when present: the benchmark prints a note instead (never needed by tests).
 */
final class RateBench {

    private final PrintWriter out;
    /** The client's run-phase CPU per request by thread role (summary.json), or null. */
    private String clientByThread;

    RateBench(PrintWriter out) {
        this.out = out;
    }

    int run(int users, String duration, Path dir) throws Exception {
        Path lighttpd = which("lighttpd");
        Path taskset = which("taskset");
        if (lighttpd == null || taskset == null) {
            out.println("bench rate needs lighttpd and taskset (apt-get install -y lighttpd wrk httperf); not found, nothing measured");
            return 0;
        }
        int cores = Runtime.getRuntime().availableProcessors();
        String clientCore = "0";
        String serverCore = cores > 1 ? "1" : "0";
        Files.createDirectories(dir);
        Path root = dir.resolve("www").toAbsolutePath();
        Files.createDirectories(root);
        StringBuilder page = new StringBuilder("<html><head><title>static</title></head><body>\n");
        while (page.length() < 2000) {
            page.append("<p>a static page of 2 KB for the request-rate benchmark</p>\n");
        }
        Files.writeString(root.resolve("page.html"), page.append("</body></html>\n").toString(), StandardCharsets.ISO_8859_1);
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path conf = dir.resolve("lighttpd.conf").toAbsolutePath();
        Files.writeString(conf, "server.document-root = \"" + root + "\"\nserver.port = " + port + "\nserver.bind = \"127.0.0.1\"\n"
                + "server.modules = ( \"mod_rewrite\" )\nurl.rewrite-once = ( \"^/.*\" => \"/page.html\" )\n"
                + "server.max-keep-alive-requests = 1000000\nserver.max-keep-alive-idle = 600\nserver.max-connections = 4096\n"
                + "server.errorlog = \"" + dir.toAbsolutePath().resolve("lighttpd-error.log") + "\"\n", StandardCharsets.ISO_8859_1);
        // lighttpd 1.4: max-keep-alive-requests = 0 DISABLES keep-alive (every reply says Connection: close);
        // a large count keeps each connection for the whole run, as wrk and the client expect
        Process server = new ProcessBuilder(taskset.toString(), "-c", serverCore, lighttpd.toString(), "-D", "-f", conf.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("lighttpd.out").toFile()).start();
        List<String> rows = new ArrayList<>();
        try {
            Thread.sleep(500);
            if (!server.isAlive()) {
                out.println("lighttpd did not start: see " + dir.resolve("lighttpd.out"));
                return 1;
            }
            String base = "http://127.0.0.1:" + port;
            out.printf(Locale.ROOT, "static 2 KB page on lighttpd (core %s), clients on core %s, %d connections, %s each%n", serverCore, clientCore, users, duration);
            rows.add(client(taskset, clientCore, base, users, duration, dir.resolve("netty")));
            rows.add(wrk(taskset, clientCore, base, users, duration, dir));
            rows.add(httperf(taskset, clientCore, port, users, duration));
        } finally {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
        out.println();
        out.println(String.format(Locale.ROOT, "%-26s %12s %14s %13s %12s %14s", "client", "requests/s", "CPU us/request", "kernel us/req", "fixed cores",
                "gross us/req"));
        rows.forEach(out::println);
        if (clientByThread != null) {
            out.println("rubis-client netty, CPU by thread: " + clientByThread);
        }
        out.println("CPU us/request: the client's CPU per request with its fixed cost (measured idle before the first request) taken out;");
        out.println("kernel: its system CPU per request (system calls, the network stack: the part no client code can cut; fixed cost included);");
        out.println("gross: all its run-phase CPU over its requests. wrk and httperf have no samplers: their whole CPU counts.");
        out.flush();
        return 0;
    }

    private String client(Path taskset, String core, String base, int users, String duration, Path runDir) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(taskset.toString(), "-c", core, EmbeddedServerProcess.javaExecutable(), "-Xmx512m", "-jar",
                ChildJvm.selfJar(), "run", "--target", base, "--backend", "netty", "--users", String.valueOf(users), "--think-scale", "0",
                "--ramp-up", "5s", "--duration", duration, "--ramp-down", "0", "--seed", "1", "--no-progress", "--out", runDir.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(runDir.resolveSibling("netty.out").toFile()).start();
        p.waitFor();
        SummaryFile s = SummaryFile.read(runDir);
        if (s == null) {
            return String.format(Locale.ROOT, "%-26s failed, see %s", "rubis-client netty", runDir.resolveSibling("netty.out"));
        }
        SummaryFile.Health h = s.health();
        try {
            com.fasterxml.jackson.databind.JsonNode per = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(org.rubis.format.RunFiles.summaryJson(runDir).toFile()).path("client_health").path("run_cpu_us_per_request_by_thread");
            clientByThread = per.isObject() ? org.rubis.client.report.Summary.byThread(per) : null;
        } catch (IOException e) {
            clientByThread = null;
        }
        return String.format(Locale.ROOT, "%-26s %12.0f %14s %13s %12s %14.1f", "rubis-client netty (log on)", s.throughputRps(),
                h.runRequestCpuUs() < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", h.runRequestCpuUs()),
                h.runSystemCpuUsPerRequest() < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", h.runSystemCpuUsPerRequest()),
                h.fixedCpuCores() < 0 ? "n/a" : String.format(Locale.ROOT, "%.4f", h.fixedCpuCores()), h.runCpuUsPerRequest());
    }

    private String wrk(Path taskset, String core, String base, int users, String duration, Path dir) throws Exception {
        Path wrk = which("wrk");
        if (wrk == null) {
            return String.format(Locale.ROOT, "%-26s not installed (apt-get install -y wrk)", "wrk");
        }
        // bash's time keyword gives the CPU of the pinned wrk; TIMEFORMAT "%U %S" prints user and system seconds.
        String text = capture(List.of("bash", "-c", "TIMEFORMAT='cpu %U %S'; time " + taskset + " -c " + core + " " + wrk + " -t1 -c" + users
                + " -d" + duration + " " + base + "/page.html"), dir.resolve("wrk.out"));
        Matcher rate = Pattern.compile("Requests/sec:\\s+([0-9.]+)").matcher(text);
        Matcher total = Pattern.compile("([0-9]+) requests in").matcher(text);
        Matcher cpu = Pattern.compile("cpu ([0-9.]+) ([0-9.]+)").matcher(text);
        if (!rate.find() || !total.find() || !cpu.find()) {
            return String.format(Locale.ROOT, "%-26s no figures, see %s", "wrk", dir.resolve("wrk.out"));
        }
        double us = (Double.parseDouble(cpu.group(1)) + Double.parseDouble(cpu.group(2))) * 1e6 / Long.parseLong(total.group(1));
        double kernel = Double.parseDouble(cpu.group(2)) * 1e6 / Long.parseLong(total.group(1));
        return String.format(Locale.ROOT, "%-26s %12.0f %14.1f %13.1f %12s %14.1f", "wrk -t1", Double.parseDouble(rate.group(1)), us, kernel, "-", us);
    }

    private String httperf(Path taskset, String core, int port, int users, String duration) throws Exception {
        Path httperf = which("httperf");
        if (httperf == null) {
            return String.format(Locale.ROOT, "%-26s not installed (apt-get install -y httperf)", "httperf");
        }
        // Each of the connections sends its calls back to back; enough calls to last about the duration at wrk's rate.
        long seconds = Durations.millis("--duration", duration) / 1000;
        long calls = Math.max(1000, 100_000 * seconds / Math.max(1, users));
        String text = capture(List.of(taskset.toString(), "-c", core, httperf.toString(), "--server", "127.0.0.1", "--port", String.valueOf(port),
                "--uri", "/page.html", "--num-conns", String.valueOf(users), "--num-calls", String.valueOf(calls), "--rate", "1000",
                "--hog", "--timeout", "10"), Path.of(System.getProperty("java.io.tmpdir"), "httperf-" + port + ".out"));
        Matcher rate = Pattern.compile("Request rate: ([0-9.]+) req/s").matcher(text);
        Matcher cpu = Pattern.compile("CPU time \\[s\\]: user ([0-9.]+) system ([0-9.]+)").matcher(text);
        Matcher total = Pattern.compile("Total: connections [0-9]+ requests ([0-9]+)").matcher(text);
        if (!rate.find() || !cpu.find() || !total.find()) {
            return String.format(Locale.ROOT, "%-26s no figures: %s", "httperf", text.lines().reduce((a, b) -> b).orElse(""));
        }
        double us = (Double.parseDouble(cpu.group(1)) + Double.parseDouble(cpu.group(2))) * 1e6 / Long.parseLong(total.group(1));
        double kernel = Double.parseDouble(cpu.group(2)) * 1e6 / Long.parseLong(total.group(1));
        return String.format(Locale.ROOT, "%-26s %12.0f %14.1f %13.1f %12s %14.1f", "httperf --hog", Double.parseDouble(rate.group(1)), us, kernel, "-",
                us);
    }

    private static String capture(List<String> cmd, Path save) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(save.toFile()).start();
        p.waitFor();
        return Files.readString(save, StandardCharsets.UTF_8);
    }

    /** The executable on PATH (or in /usr/sbin), or null. */
    static Path which(String name) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/local/sbin"));
        for (String d : dirs) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
