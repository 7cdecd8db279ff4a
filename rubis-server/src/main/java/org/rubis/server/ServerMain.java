package org.rubis.server;

import java.net.BindException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.rubis.format.cli.OneLineErrors;
import org.rubis.format.cli.WholeWordHelp;
import org.rubis.format.fault.FaultSpec;
import org.rubis.format.io.ParentWatch;
import org.rubis.format.io.Tls;
import org.rubis.format.text.Printable;
import org.rubis.server.data.DataPolicy;
import org.rubis.server.http.ServerSettings;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rubis-server.jar}: starts the embedded RUBiS site, prints its URL when ready, and stops
 * cleanly on SIGINT/SIGTERM with its logs flushed.
 */
@Command(
        name = "rubis-server",
        mixinStandardHelpOptions = true,
        version = "rubis-server 0.1.0",
        showDefaultValues = true,
        description = "RUBiS-compatible auction site (PHP layout under /PHP/) with ground-truth logs.")
public final class ServerMain implements Callable<Integer> {

    /** The line printed when the server accepts requests; the client waits for it. */
    public static final String READY = "rubis-server ready: ";

    @Option(
            names = "--host",
            paramLabel = "ADDRESS",
            defaultValue = "127.0.0.1",
            description = "Address to bind (loopback by default).")
    String host;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080", description = "TCP port; 0 picks a free one.")
    int port;

    @Option(
            names = "--model",
            paramLabel = "event|prefork",
            defaultValue = "event",
            description = "event (Netty event loops, like Lighttpd) or prefork (worker pool, like Apache).")
    String model;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "Write requests.csv, connections.csv and stats.json here (default: no logs).")
    Path out;

    @Option(
            names = "--size",
            paramLabel = "SCALE",
            defaultValue = "0.05",
            description = "Scale of the generated items (1.0 = the counts of the categories file).")
    double size;

    @Option(
            names = {"-p", "--properties"},
            paramLabel = "FILE",
            description = "rubis.properties with the database_* policy (default: packaged).")
    Path properties;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "1", description = "Seed of the data generator.")
    long seed;

    @Option(
            names = "--db-file",
            paramLabel = "PATH",
            description = "File-backed H2 database instead of memory (reused if populated; default: memory).")
    String dbFile;

    @Option(
            names = "--keepalive-ms",
            paramLabel = "MS",
            defaultValue = "5000",
            description = "Keep-alive idle timeout; 0 = never.")
    int keepAliveMs;

    @Option(
            names = "--max-keepalive-requests",
            paramLabel = "N",
            defaultValue = "0",
            description = "Close a connection after this many requests; 0 = unlimited.")
    int maxKeepAliveRequests;

    @Option(
            names = "--workers",
            paramLabel = "N",
            defaultValue = "15",
            description = "prefork: initial workers (StartServers).")
    int workers;

    @Option(
            names = "--max-workers",
            paramLabel = "N",
            defaultValue = "150",
            description = "prefork: maximum workers (MaxClients).")
    int maxWorkers;

    @Option(
            names = "--min-spare-workers",
            paramLabel = "N",
            defaultValue = "5",
            description = "prefork: spawn when fewer are idle.")
    int minSpare;

    @Option(
            names = "--spawn-delay-ms",
            paramLabel = "MS",
            defaultValue = "1000",
            description = "prefork: interval between spawn rounds.")
    int spawnDelayMs;

    @Option(names = "--backlog", paramLabel = "N", defaultValue = "511", description = "Accept queue length.")
    int backlog;

    @Option(
            names = "--event-threads",
            paramLabel = "N",
            defaultValue = "0",
            description = "event: event-loop threads; 0 = one per core.")
    int eventThreads;

    @Option(
            names = "--demand-us",
            paramLabel = "US",
            defaultValue = "0",
            description = "Extra CPU work per request, in microseconds.")
    int demandUs;

    @Option(names = "--tls", description = "Serve HTTPS instead of HTTP.")
    boolean tls;

    @Option(
            names = "--tls-resumption",
            paramLabel = "on|off",
            defaultValue = "on",
            description = "on: clients may resume TLS sessions; off: every handshake is full.")
    String tlsResumption;

    @Option(
            names = "--tls-keystore",
            paramLabel = "FILE",
            description = "PKCS12 keystore (default: a packaged self-signed loopback certificate).")
    Path tlsKeystore;

    @Option(
            names = "--tls-password",
            paramLabel = "PASSWORD",
            description = "Keystore password (default: the packaged certificate's).")
    String tlsPassword;

    @Option(
            names = "--exit-with-parent",
            description =
                    "Stop (logs flushed) when the parent process exits or closes this process's standard input; the client's embedded server uses it.")
    boolean exitWithParent;

    @Option(
            names = "--faults",
            paramLabel = "SPEC",
            showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Inject faults: kind[=param][:fraction][@start[-end]],... with kind one of "
                    + "hang, delay=MS, reset, truncate, idle-close=MS, status=CODE, garbage, large=MB, stop-accepting, die. "
                    + "Examples: reset:0.1 (10 %% of the requests), delay=3000:0.5@10-20 (half the requests from 10 s to 20 s), stop-accepting@5-15, die@30. "
                    + "requests.csv names the fault of each request; see docs/FAULTS.md.")
    String faults;

    @Option(
            names = "--demand",
            paramLabel = "INTERACTION=us",
            showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Extra CPU work for one interaction, e.g. --demand ViewItem=500.")
    Map<String, Integer> demand = new LinkedHashMap<>();

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The command line with its error handling: user mistakes are one line, exit status 2 (parse) or 1. Also what
     * docs/cli/ is generated from.
     */
    public static CommandLine commandLine() {
        CommandLine cl = OneLineErrors.install(new CommandLine(new ServerMain()));
        cl.setHelpFactory(WholeWordHelp::new);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr()
                    .println("rubis-server: "
                            + Printable.escape((ex instanceof IllegalArgumentException
                                            ? ""
                                            : ex.getClass().getSimpleName() + ": ")
                                    + ex.getMessage()));
            return 1;
        });
        return cl;
    }

    @Override
    public Integer call() throws Exception {
        RubisServer.Model m = model();
        if (size <= 0) {
            throw new IllegalArgumentException("--size must be > 0");
        }
        Map<String, Integer> d = new LinkedHashMap<>(demand);
        if (demandUs > 0) {
            d.put("*", demandUs);
        }
        ServerSettings settings = settings();
        FaultSpec faultSpec = FaultSpec.parse(faults);
        RubisServer server =
                new RubisServer(m, settings, DataPolicy.load(properties, size, seed), out, dbFile, d, faultSpec);
        dieAsKilled(server);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            stopped.countDown();
                        },
                        "rubis-server-shutdown"));
        int bound = start(server);
        System.out.println(READY + (tls ? "https://" : "http://") + host + ":" + bound + "/PHP/ (model "
                + m.name().toLowerCase(Locale.ROOT)
                + ", " + server.items() + " items, populated in " + server.populateMs() + " ms"
                + (out == null ? "" : ", logs in " + out) + (faultSpec.isEmpty() ? "" : ", faults " + faultSpec) + ")");
        System.out.flush();
        if (exitWithParent) {
            ParentWatch.start(() -> {
                System.out.println("rubis-server: parent process gone; stopping");
                System.exit(0); // runs the shutdown hook: the server stops and its logs are flushed
            });
        }
        stopped.await();
        return 0;
    }

    private RubisServer.Model model() {
        return switch (model.toLowerCase(Locale.ROOT)) {
            case "event" -> RubisServer.Model.EVENT;
            case "prefork" -> RubisServer.Model.PREFORK;
            default -> throw new IllegalArgumentException("--model " + model + ": expected event or prefork");
        };
    }

    private ServerSettings settings() {
        if (!tlsResumption.equals("on") && !tlsResumption.equals("off")) {
            throw new IllegalArgumentException("--tls-resumption " + tlsResumption + ": expected on or off");
        }
        Tls tlsConfig = tls ? Tls.load(tlsKeystore, tlsPassword, tlsResumption.equals("on")) : null;
        return new ServerSettings(
                host,
                port,
                keepAliveMs,
                maxKeepAliveRequests,
                workers,
                maxWorkers,
                minSpare,
                spawnDelayMs,
                backlog,
                eventThreads,
                tlsConfig);
    }

    /**
     * The fault {@code die}: the connections first, then the logs (a reply written while the logs closed reached the
     * client but not server/requests.csv: 5 of 35 successes once); closing the server lets every reply already
     * written be logged. Its own thread, as a request's die comes on an event loop the close waits for; then the
     * JVM ends as SIGKILL would: no orderly exit.
     */
    private static void dieAsKilled(RubisServer server) {
        server.faults()
                .onDie(() -> new Thread(
                                () -> {
                                    server.close();
                                    Runtime.getRuntime().halt(137);
                                },
                                "rubis-server-die")
                        .start());
    }

    /** Starts {@code server}: its port, or a one-line error when the address is taken. */
    private int start(RubisServer server) throws Exception {
        try {
            return server.start();
        } catch (Exception e) {
            server.close();
            // java.net.BindException from the prefork model; Netty's epoll transport reports the same as a
            // NativeIoException.
            if (e instanceof BindException || String.valueOf(e.getMessage()).contains("already in use")) {
                throw new IllegalArgumentException("cannot listen on " + host + ":" + port
                        + " (address already in use); choose another --port, or 0 for a free one");
            }
            throw e;
        }
    }
}
