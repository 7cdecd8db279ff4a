package org.rubis.lab.accuracy;

import java.io.BufferedReader;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.rubis.client.cli.Population;
import org.rubis.client.cli.RunPhases;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.JvmProfiles;
import org.rubis.client.process.ChildJvm;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.report.SummaryFile;
import org.rubis.format.run.Phase;
import org.rubis.format.run.RunFiles;
import org.rubis.lab.Runs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The paper's Figure 3 effect: the same workload under several JVM profiles (by default the JIT
 * and an interpreter-only JVM), and for each the error of the client's mean and p99 response time
 * against the embedded server's ground truth, with the client's CPU.
 */
@Command(
        name = "accuracy",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        showDefaultValues = true,
        description =
                "Same workload under JVM profiles; error of the client's mean and p99 against the server's own log.")
public final class AccuracyCommand implements Callable<Integer> {

    @Option(
            names = "--profiles",
            split = ",",
            paramLabel = "NAME",
            defaultValue = "default,no-jit",
            description = "The JVM profiles, in this order.")
    List<String> names;

    @Option(
            names = "--jvm-profiles",
            paramLabel = "FILE",
            description = "Extra JVM profiles (name = flags), added to the packaged ones.")
    Path profiles;

    @Mixin
    Population population = new Population(400, 0.25);

    @Option(
            names = "--backend",
            paramLabel = "NAME",
            defaultValue = "dedicated",
            description = "The backend: ${COMPLETION-CANDIDATES}.")
    BackendKind backend;

    @Mixin
    RunPhases phases = new RunPhases("10s", "30s");

    @Mixin
    Runs runs = new Runs("runs/accuracy");

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        JvmProfiles all = JvmProfiles.load(profiles);
        PrintWriter pw = spec.commandLine().getOut();
        List<String> rows = new ArrayList<>();
        ClientCommandLine base = ClientCommandLine.run()
                .users(population.users())
                .thinkScale(population.thinkScale())
                .backend(backend)
                .rampUp(phases.rampUp())
                .duration(phases.duration())
                .rampDown(Duration.ZERO)
                .seed(1)
                .noProgress();
        for (String name : names) {
            Path dir = runs.dir().resolve(name);
            Files.createDirectories(dir);
            ClientCommandLine line = base.profile(name, all.flags(name)).out(dir);
            pw.println(name + ": " + String.join(" ", line.command()));
            pw.flush();
            ChildJvm.run(line, dir.resolve(RunFiles.CLIENT_LOG), null);
            rows.add(row(name, dir));
        }
        pw.println();
        pw.println(String.format(
                Locale.ROOT,
                "%-10s %11s %11s %10s %11s %11s %10s %10s %11s",
                "profile",
                "client mean",
                "server mean",
                "error",
                "client p99",
                "server p99",
                "error",
                "CPU cores",
                "CPU us/req"));
        rows.forEach(pw::println);
        pw.println("(ms; run phase; server = the embedded server's own time from request arrival to response written)");
        pw.flush();
        return 0;
    }

    private static String row(String name, Path dir) throws Exception {
        SummaryFile s = SummaryFile.read(dir);
        if (s == null) {
            return name + ": failed, see " + dir.resolve(RunFiles.CLIENT_LOG);
        }
        // The run phase's window, from the client's log; the server's requests that arrived in it.
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        try (BufferedReader r = Files.newBufferedReader(RunFiles.requests(dir))) {
            List<String> header = Arrays.asList(r.readLine().split(","));
            int phase = header.indexOf("phase");
            int send = header.indexOf("send_epoch_ns");
            for (String line; (line = r.readLine()) != null; ) {
                String[] f = line.split(",");
                if (f.length > send && f[phase].equals(Phase.RUN.label())) {
                    long t = Long.parseLong(f[send]);
                    from = Math.min(from, t);
                    to = Math.max(to, t);
                }
            }
        }
        long[] service = new long[1024];
        int n = 0;
        try (BufferedReader r = Files.newBufferedReader(RunFiles.serverRequests(dir))) {
            r.readLine();
            for (String line; (line = r.readLine()) != null; ) {
                String[] f = line.split(",", 5);
                long arrival = Long.parseLong(f[1]);
                if (arrival >= from && arrival <= to) {
                    if (n == service.length) {
                        service = Arrays.copyOf(service, n * 2);
                    }
                    service[n++] = Long.parseLong(f[3]);
                }
            }
        }
        Arrays.sort(service, 0, n);
        double serverMean = n == 0 ? 0 : Arrays.stream(service, 0, n).average().orElse(0) / 1e6;
        double serverP99 = n == 0 ? 0 : service[(int) Math.ceil(0.99 * n) - 1] / 1e6;
        double clientMean = s.run().mean();
        double clientP99 = s.run().p99();
        return String.format(
                Locale.ROOT,
                "%-10s %11.3f %11.3f %10.3f %11.3f %11.3f %10.3f %10.2f %11.1f",
                name,
                clientMean,
                serverMean,
                clientMean - serverMean,
                clientP99,
                serverP99,
                clientP99 - serverP99,
                s.health().runCpuCores(),
                s.health().runCpuUsPerRequest());
    }
}
