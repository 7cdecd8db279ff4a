package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/kubernetes on a real cluster, as a user runs it (deploy/README.md): the image built without a registry
 * (deploy/container/build-image.sh) and imported into the node's containerd, the manifests applied through the
 * one-node overlay (deploy/one-node) and a small overlay of the test's own (namespace, target, a short
 * workload), three shards against a rubis-server on the node, the results copied out with the results pod and
 * merged, and seen live by a Prometheus that finds the pods through the apiserver. Then a shard's pod deleted
 * mid-run, a second run of the same Job name, the results pod deleted, and a shard that never gets ready.
 *
 * <p>Opt-in, not in the default suite (tag {@code cluster}): {@code mvn -B verify -pl src/test -am -Pcluster
 * -Dtest=KubernetesClusterTest -Dsurefire.failIfNoSpecifiedTests=false}, as root (the image build needs it). It takes
 * the cluster of {@code KUBECONFIG} (the node's containerd for the import at {@code CONTAINERD_ADDRESS}, else the image
 * must be on the node already); without one it stands up the one-node cluster of {@code ../shared/cluster/
 * local-cluster.sh} beside the repository, where there is one, and stops it after. Only hostNetwork pods, loopback
 * only: the server listens on 127.0.0.1 of the node, the pods' live views too. Where nothing can be had it is skipped
 * with one line saying what is missing.
 */
@Tag("cluster")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubernetesClusterTest {

    static final Path ROOT = KubernetesManifestsTest.ROOT;
    static final ObjectMapper JSON = new ObjectMapper();
    static final String JOB = "rubis-client";
    /** The pods' grace period (the Kubernetes default; job.yaml sets none). */
    static final long GRACE_S = 30;

    @TempDir
    static Path work;

    static Map<String, String> env = new HashMap<>();
    static String kubectl;
    static Path localCluster;
    static boolean startedCluster;
    static String namespace;
    static String pv;
    static Path hostResults;
    static Process server;
    static Path serverDir;
    static String target;
    /** The cluster script's scratch root (its binaries, state, and the Prometheus build). */
    static final Path clusterWork = Path.of(System.getenv().getOrDefault("WORK", "/tmp/k8s"));
    /** Run 1's Prometheus (null when it could not be had: {@link #promMissing} says why) and its port. */
    static Process prom;

    static int promPort;
    static String promMissing;
    /** Run 1's merged requests (-1 until it merged). */
    static long run1Requests = -1;

    record Out(int status, String out, String err) {
        Out ok(String what) {
            assertEquals(0, status, what + ": " + out + err);
            return this;
        }
    }

    static Out sh(long seconds, List<String> cmd) throws IOException, InterruptedException {
        Path o = Files.createTempFile(work, "out", ".txt");
        Path e = Files.createTempFile(work, "err", ".txt");
        ProcessBuilder b = new ProcessBuilder(cmd).redirectOutput(o.toFile()).redirectError(e.toFile());
        b.environment().putAll(env);
        Process p = b.start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", cmd) + ": not done in " + seconds + " s: " + Files.readString(o)
                    + Files.readString(e));
        }
        return new Out(p.exitValue(), Files.readString(o), Files.readString(e));
    }

    static Out k(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(kubectl));
        cmd.addAll(List.of(args));
        return sh(300, cmd);
    }

    static Out kn(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("-n", namespace));
        cmd.addAll(List.of(args));
        return k(cmd.toArray(String[]::new));
    }

    static void log(String line) {
        System.out.printf(Locale.ROOT, "%tT KubernetesClusterTest: %s%n", System.currentTimeMillis(), line);
    }

    /** Skips the test with one line saying what is missing (printed too: surefire shows no reason for a skip). */
    static void need(boolean there, String missing) {
        if (!there) {
            log("skipped: " + missing);
        }
        Assumptions.assumeTrue(there, missing);
    }

    @BeforeAll
    static void cluster() throws Exception {
        long t0 = System.nanoTime();
        need(
                "0".equals(sh(10, List.of("id", "-u")).out().strip()),
                "KubernetesClusterTest: not root (the image build needs buildah and debootstrap as root)");
        String given = System.getenv("KUBECONFIG");
        // ../shared beside the repository (or beside the directory of its worktrees)
        Path script = ROOT.getParent().resolve("shared/cluster/local-cluster.sh");
        if (!Files.isRegularFile(script) && ROOT.getParent().getParent() != null) {
            script = ROOT.getParent().getParent().resolve("shared/cluster/local-cluster.sh");
        }
        if (given != null && !given.isBlank()) {
            kubectl = "kubectl";
            env.put("KUBECONFIG", given);
        } else {
            need(
                    Files.isRegularFile(script),
                    "KubernetesClusterTest: no KUBECONFIG and no " + script + " to stand a cluster up");
            need(
                    Files.isExecutable(clusterWork.resolve("bin/kube-apiserver"))
                            && Files.isExecutable(clusterWork.resolve("bin/kubectl")),
                    "KubernetesClusterTest: no KUBECONFIG, and " + script + " has not built the cluster in "
                            + clusterWork + " (run its deps and build stages once: 15-20 min)");
            localCluster = script;
            kubectl = clusterWork.resolve("bin/kubectl").toString();
            env.put("KUBECONFIG", clusterWork.resolve("state/admin.kubeconfig").toString());
            env.put(
                    "CONTAINERD_ADDRESS",
                    clusterWork.resolve("state/run/containerd.sock").toString());
            if (sh(30, List.of(kubectl, "get", "--raw", "/readyz")).status() != 0) {
                if (!Files.isRegularFile(clusterWork.resolve("image/pause/pause.tar"))) {
                    env.put(
                            "RUBIS_SRC",
                            ROOT.toString()); // its images stage: the sandbox image (and its own client image)
                    sh(900, List.of(script.toString(), "images")).ok("local-cluster.sh images");
                }
                log("starting the local cluster: " + script + " up");
                sh(300, List.of(script.toString(), "up")).ok("local-cluster.sh up");
                startedCluster = true;
            }
        }
        Out version = k("version", "-o", "json").ok("kubectl version");
        log("cluster "
                + JSON.readTree(version.out())
                        .path("serverVersion")
                        .path("gitVersion")
                        .asText() + " at " + env.get("KUBECONFIG"));
        image();
        namespace = "rubis-e2e-" + UUID.randomUUID().toString().substring(0, 8);
        pv = "rubis-results-" + namespace;
        k("create", "namespace", namespace).ok("create namespace");
        hostResults = Files.createDirectories(work.resolve("results-volume"));
        Files.delete(hostResults); // the kubelet makes it, root-owned (DirectoryOrCreate), as on a real volume
        log("ready in " + (System.nanoTime() - t0) / 1_000_000_000 + " s");
    }

    /** deploy/container/build-image.sh, then into the node's containerd (k8s.io namespace), as the kubelet sees it. */
    static void image() throws Exception {
        for (String tool : List.of("buildah", "debootstrap")) {
            need(
                    sh(10, List.of("sh", "-c", "command -v " + tool)).status() == 0,
                    "KubernetesClusterTest: no " + tool + " (apt-get install buildah debootstrap)");
        }
        Path tar = work.resolve("rubis-client-image.tar");
        Map<String, String> e = new HashMap<>(env);
        env.put("OUT", tar.toString());
        long t = System.nanoTime();
        sh(900, List.of(ROOT.resolve("deploy/container/build-image.sh").toString()))
                .ok("build-image.sh");
        env.clear();
        env.putAll(e);
        log("image built in " + (System.nanoTime() - t) / 1_000_000 + " ms");
        if (env.containsKey("CONTAINERD_ADDRESS") || System.getenv("CONTAINERD_ADDRESS") != null) {
            sh(300, List.of("ctr", "-n", "k8s.io", "images", "import", tar.toString()))
                    .ok("ctr images import");
        } else {
            log("no CONTAINERD_ADDRESS: the image rubis-client:0.1.0 must be on the nodes already");
        }
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (namespace != null) {
            k("delete", "namespace", namespace, "--wait=true", "--timeout=120s");
            k("delete", "pv", pv, "--ignore-not-found");
        }
        stopServer();
        if (prom != null) {
            prom.destroyForcibly();
        }
        if (startedCluster) {
            sh(300, List.of(localCluster.toString(), "down"));
        }
    }

    /** rubis-server on the node's loopback, its logs in {@code dir}: the ground truth of what the shards sent. */
    static void startServer(Path dir) throws Exception {
        serverDir = Files.createDirectories(dir);
        server = new ProcessBuilder(List.of(
                        Cli.java(),
                        "-XX:TieredStopAtLevel=1",
                        "-jar",
                        Cli.serverJar().toAbsolutePath().toString(),
                        "--port",
                        "0",
                        "--out",
                        dir.toString(),
                        "--exit-with-parent"))
                .redirectErrorStream(true)
                .start();
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    if (line.startsWith("rubis-server ready: ")) {
                        ready.complete(line.substring("rubis-server ready: ".length()));
                    }
                }
            } catch (IOException ignored) {
                // the server ended
            }
            ready.completeExceptionally(new IOException("rubis-server ended before it was ready"));
        });
        String url = ready.get(180, TimeUnit.SECONDS);
        target = url.substring(0, url.indexOf("/PHP/"));
        log("rubis-server at " + target);
    }

    /** Stops the server (SIGTERM: it flushes its logs); returns the requests it logged. */
    static long stopServer() throws Exception {
        if (server == null) {
            return -1;
        }
        server.destroy();
        assertTrue(server.waitFor(60, TimeUnit.SECONDS), "rubis-server stops");
        server = null;
        try (Stream<String> lines = Files.lines(serverDir.resolve("requests.csv"))) {
            return lines.count() - 1;
        }
    }

    /**
     * The test's overlay on deploy/one-node: its namespace and volume, the target on the node's loopback, a
     * short workload, the live views on loopback, a short linger.
     */
    static Path overlay(String name) throws Exception {
        return overlay(name, "");
    }

    /** As {@link #overlay(String)}, with more JSON-patch operations on the Job ({@code ops}: lines of them). */
    static Path overlay(String name, String ops) throws Exception {
        Path dir = Files.createDirectories(work.resolve("overlay-" + name));
        String props = KubernetesManifestsTest.YAML
                .readTree(KubernetesManifestsTest.K8S.resolve("configmap.yaml").toFile())
                .path("data")
                .path("rubis.properties")
                .asString();
        Map<String, String> set = Map.of(
                "client_target", target,
                "workload_number_of_clients_per_node", "6",
                "workload_up_ramp_time_in_ms", "0",
                "workload_session_run_time_in_ms", "12000",
                "workload_down_ramp_time_in_ms", "0",
                "workload_use_tpcw_think_time", "no");
        for (Map.Entry<String, String> e : set.entrySet()) {
            String before = props;
            props = props.replaceAll("(?m)^" + e.getKey() + " = .*$", e.getKey() + " = " + e.getValue());
            assertFalse(before.equals(props) && !props.contains(e.getKey() + " = " + e.getValue()), e.getKey());
        }
        props += "workload_think_scale = 0.02\n";
        // The linger's value in job.yaml's args, by position: a JSON patch replaces list items by index.
        List<String> args = KubernetesManifestsTest.container(
                        KubernetesManifestsTest.read("job.yaml", io.fabric8.kubernetes.api.model.batch.v1.Job.class))
                .getArgs();
        int linger = args.indexOf("--metrics-linger") + 1;
        String indented = props.lines().map(l -> "          " + l).reduce("", (a, b) -> a + b + "\n");
        Files.writeString(dir.resolve("kustomization.yaml"), """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                namespace: %s
                resources:
                  - %s
                patches:
                  - target: {kind: PersistentVolume, name: rubis-results}
                    patch: |-
                      - {op: replace, path: /metadata/name, value: %s}
                      - {op: replace, path: /spec/hostPath/path, value: %s}
                  - target: {kind: PersistentVolumeClaim, name: rubis-results}
                    patch: |-
                      - {op: replace, path: /spec/volumeName, value: %s}
                  - target: {kind: Job, name: rubis-client}
                    patch: |-
                      - {op: replace, path: /metadata/name, value: %s}
                      - {op: replace, path: /spec/template/spec/containers/0/args/%d, value: 5s}
                      - {op: replace, path: /spec/activeDeadlineSeconds, value: 300}
                %s
                  - patch: |-
                      apiVersion: batch/v1
                      kind: Job
                      metadata: {name: rubis-client}
                      spec:
                        template:
                          spec:
                            containers:
                              - name: rubis-client
                                env:
                                  - {name: RUBIS_METRICS_ADDRESS, value: "127.0.0.1"}
                                  - {name: RUBIS_JIT_WARMUP, value: "off"}
                  - patch: |-
                      apiVersion: v1
                      kind: ConfigMap
                      metadata: {name: rubis-client-config}
                      data:
                        rubis.properties: |
                %s
                """.formatted(
                        namespace,
                        dir.toAbsolutePath().relativize(KubernetesManifestsTest.ROOT.resolve("deploy/one-node")),
                        pv,
                        hostResults,
                        pv,
                        name,
                        linger,
                        ops.lines()
                                .map(l -> "      " + l)
                                .reduce("", (a, b) -> a + b + "\n")
                                .stripTrailing(),
                        indented.stripTrailing()));
        return dir;
    }

    static JsonNode job(String name) throws Exception {
        return JSON.readTree(kn("get", "job", name, "-o", "json").ok("get job").out());
    }

    /** The pods of this run of Job {@code name} (by its uid: a deleted Job's pods may still be there). */
    static JsonNode pods(String name) throws Exception {
        String uid = job(name).path("metadata").path("uid").asText();
        return JSON.readTree(kn("get", "pods", "-l", "batch.kubernetes.io/controller-uid=" + uid, "-o", "json")
                        .ok("get pods")
                        .out())
                .path("items");
    }

    /** Waits until the Job has a Complete or Failed condition; returns which. */
    static String awaitJob(String name, long seconds) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end) {
            for (JsonNode c : job(name).path("status").path("conditions")) {
                if ((c.path("type").asText().equals("Complete")
                                || c.path("type").asText().equals("Failed"))
                        && c.path("status").asText().equals("True")) {
                    return c.path("type").asText() + " (" + c.path("reason").asText() + ")";
                }
            }
            Thread.sleep(1000);
        }
        throw new AssertionError("job " + name + " not finished in " + seconds + " s: "
                + kn("get", "pods", "-o", "wide").out()
                + kn("describe", "job", name).out());
    }

    /** Each pod's index -> its phase, and its client container's exit code (-1 while it runs). */
    static Map<Integer, String> phases(String name) throws Exception {
        Map<Integer, String> m = new HashMap<>();
        for (JsonNode p : pods(name)) {
            int i = p.path("metadata")
                    .path("annotations")
                    .path("batch.kubernetes.io/job-completion-index")
                    .asInt();
            int code = -1;
            for (JsonNode s : p.path("status").path("containerStatuses")) {
                if (s.path("state").has("terminated")) {
                    code = s.path("state").path("terminated").path("exitCode").asInt();
                }
            }
            m.merge(i, p.path("status").path("phase").asText() + "/" + code, (a, b) -> a + "," + b);
        }
        return m;
    }

    /** The results of the Job's run, copied out with the results pod as deploy/README.md says, then merged. */
    static JsonNode copyAndMerge(String name, String uid, Path into) throws Exception {
        Path results = work.resolve("overlay-results");
        if (!Files.isDirectory(results)) {
            Files.createDirectories(results);
            Files.writeString(
                    results.resolve("kustomization.yaml"),
                    "namespace: " + namespace + "\nresources:\n  - "
                            + results.toAbsolutePath()
                                    .relativize(KubernetesManifestsTest.ROOT.resolve("deploy/one-node/results"))
                            + "\n");
        }
        kn("apply", "-k", results.toString()).ok("apply the results pod");
        kn("wait", "--for=condition=ready", "pod/rubis-results", "--timeout=120s")
                .ok("results pod ready");
        kn("cp", "rubis-results:/results/" + name + "/" + uid, into.toString()).ok("kubectl cp");
        long t = System.nanoTime();
        kn("delete", "pod", "rubis-results").ok("delete the results pod");
        long ms = (System.nanoTime() - t) / 1_000_000;
        log("kubectl delete pod rubis-results: " + ms + " ms");
        assertTrue(ms < GRACE_S * 1000, "the results pod's PID 1 ends on SIGTERM, not at the grace period: " + ms);
        Path merged = work.resolve(into.getFileName() + "-merged");
        List<String> args = new ArrayList<>(List.of("merge"));
        try (Stream<Path> s = Files.list(into)) {
            s.filter(p -> p.getFileName().toString().startsWith("shard-"))
                    .sorted()
                    .forEach(p -> args.add(p.toString()));
        }
        args.addAll(List.of("--out", merged.toString()));
        Cli.Result r = Cli.analysis(work, args.toArray(String[]::new));
        log("merge: "
                + r.out()
                        .lines()
                        .filter(l -> l.contains("status") || l.contains("warning"))
                        .toList());
        assertEquals(0, r.status(), r.out() + r.err());
        return JSON.readTree(merged.resolve("summary.json").toFile());
    }

    static long shardRequests(Path dir) throws IOException {
        return JSON.readTree(dir.resolve("summary.json").toFile())
                .path("requests")
                .asLong();
    }

    /**
     * A real Prometheus that finds the Job's pods through the apiserver (kubernetes_sd_configs, role pod) and scrapes
     * those the Job's annotations mark, at the node's loopback address (the pods' own address, the node's, is not
     * loopback here: traffic stays on loopback) and shard I's port 9400 + I (one-node). Debian's prometheus
     * (2.42.0+ds) is built without the Kubernetes discovery: src/test/cluster/build-prometheus.sh builds one that
     * has it from the Go module proxy on first use (kept in the cluster's WORK directory). Without Go, null and
     * {@link #promMissing} says why; any other failure to build or start it fails the test.
     */
    static Process prometheus(int port) throws Exception {
        Map<String, String> e = new HashMap<>(env);
        env.put("WORK", clusterWork.toString());
        Out built;
        long t = System.nanoTime();
        try {
            built = sh(
                    1800,
                    List.of(ROOT.resolve("src/test/cluster/build-prometheus.sh").toString()));
        } finally {
            env.clear();
            env.putAll(e);
        }
        if (built.status() == 3) {
            promMissing =
                    "the live view through Kubernetes discovery: " + built.err().strip();
            log("skipped: " + promMissing);
            return null;
        }
        built.ok("build-prometheus.sh");
        Path bin = Path.of(built.out().strip().lines().reduce((a, b) -> b).orElseThrow());
        log("Prometheus with kubernetes_sd: " + bin + " (" + (System.nanoTime() - t) / 1_000_000 + " ms to have it)");
        Path config = work.resolve("prometheus.yml");
        Files.writeString(config, """
                global: {scrape_interval: 1s, evaluation_interval: 1s}
                scrape_configs:
                  - job_name: rubis-client
                    scrape_interval: 1s
                    scrape_timeout: 900ms
                    kubernetes_sd_configs:
                      - role: pod
                        kubeconfig_file: %s
                        namespaces: {names: [%s]}
                    relabel_configs:
                      - source_labels: [__meta_kubernetes_pod_annotation_prometheus_io_scrape]
                        regex: "true"
                        action: keep
                      - source_labels: [__meta_kubernetes_pod_annotation_prometheus_io_path]
                        regex: (.+)
                        target_label: __metrics_path__
                      - source_labels: [__meta_kubernetes_pod_annotation_batch_kubernetes_io_job_completion_index]
                        regex: (\\d)
                        replacement: 127.0.0.1:940$1
                        target_label: __address__
                """.formatted(env.get("KUBECONFIG"), namespace));
        return new ProcessBuilder(
                        bin.toString(),
                        "--config.file=" + config,
                        "--storage.tsdb.path=" + work.resolve("tsdb"),
                        "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("prometheus.log").toFile())
                .start();
    }

    static JsonNode promQuery(int port, String expr) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/query?query="
                                        + URLEncoder.encode(expr, StandardCharsets.UTF_8)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body()).path("data").path("result");
    }

    @Test
    @Order(1)
    void threeShardsRunToTheirEndAndMergeToTheServersCount() throws Exception {
        startServer(work.resolve("server-1"));
        promPort = LiveRunProcess.freePort();
        prom = prometheus(promPort);
        long t0 = System.nanoTime();
        Path o = overlay(JOB);
        kn("apply", "-k", o.toString()).ok("apply -k");
        String end = awaitJob(JOB, 240);
        long wallS = (System.nanoTime() - t0) / 1_000_000_000;
        Map<Integer, String> phases = phases(JOB);
        log("run 1: " + end + " after " + wallS + " s; pods " + phases);
        assertTrue(end.startsWith("Complete"), end);
        assertEquals(Map.of(0, "Succeeded/0", 1, "Succeeded/0", 2, "Succeeded/0"), phases, "every pod Succeeded");
        long serverCount = stopServer();
        String uid = job(JOB).path("metadata").path("uid").asText();
        Path copied = work.resolve("run-1");
        JsonNode m = copyAndMerge(JOB, uid, copied);
        long sum = 0;
        for (int i = 0; i < 3; i++) {
            sum += shardRequests(copied.resolve("shard-" + i));
        }
        log("run 1: merged " + m.path("requests").asLong() + " requests, shards " + sum + ", server " + serverCount
                + "; start spread "
                + m.path("merged").path("run_start_spread_ms").asDouble() + " ms");
        assertEquals(
                "complete", m.path("status").asText(), m.path("stop_reason").asText());
        assertTrue(sum > 0);
        assertEquals(sum, m.path("requests").asLong(), "merged = sum of the shards");
        assertEquals(serverCount, m.path("requests").asLong(), "merged = the server's own count");
        assertTrue(m.path("merged").has("run_start_spread_ms"), "the start spread is reported");
        assertEquals(3, m.path("merged").path("shards").size());
        run1Requests = m.path("requests").asLong();
    }

    /**
     * Run 1 seen live through Kubernetes discovery: Prometheus found every pod through the apiserver and scraped it by
     * the Job's annotations, and its summed request counter equals the merged run's requests.
     */
    @Test
    @Order(2)
    void prometheusFindsThePodsThroughTheApiserverAndItsSummedCounterIsTheMergedRuns() throws Exception {
        need(promMissing == null, promMissing);
        assertTrue(prom != null && run1Requests > 0, "run 1 ran with Prometheus (" + run1Requests + " requests)");
        try {
            assertTrue(prom.isAlive(), () -> "Prometheus ended: " + readLog("prometheus.log"));
            // Each series' last value is its final count (the pods lingered after their runs for the scrapes).
            JsonNode targets = promQuery(promPort, "count(max_over_time(up{job=\"rubis-client\"}[10m]))");
            JsonNode total = promQuery(promPort, "sum(max_over_time(rubis_requests_total[10m]))");
            long scraped = Math.round(
                    Double.parseDouble(total.path(0).path("value").path(1).asText("-1")));
            log("Prometheus (kubernetes_sd, role pod): "
                    + targets.path(0).path("value").path(1).asText() + " targets, summed rubis_requests_total "
                    + scraped + ", merged " + run1Requests);
            assertEquals(
                    "3",
                    targets.path(0).path("value").path(1).asText(),
                    () -> "every pod discovered: " + targets + " " + readLog("prometheus.log"));
            assertEquals(run1Requests, scraped, "Prometheus' summed counter = the merged run's");
        } finally {
            prom.destroy();
            prom.waitFor(10, TimeUnit.SECONDS);
        }
    }

    static String readLog(String name) {
        try {
            String s = Files.readString(work.resolve(name));
            return s.substring(Math.max(0, s.length() - 3000));
        } catch (IOException e) {
            return "(no " + name + ")";
        }
    }

    /**
     * Shard 1's pod deleted mid-run: it ends well within its grace period with a partial summary, its index fails
     * (not retried), the other shards run to their end, and the merge says shard 1 is partial. The same Job name runs
     * again after {@code kubectl delete job}.
     */
    @Test
    @Order(3)
    void aDeletedPodEndsWithinItsGraceAndTheOthersFinishAndTheSameJobNameRunsAgain() throws Exception {
        startServer(work.resolve("server-2"));
        String name = JOB;
        // What deploy/README.md says for the next run (here waiting for its pods too).
        kn("delete", "job", name, "--cascade=foreground", "--wait=true", "--timeout=120s")
                .ok("delete job");
        Path o = overlay(name);
        kn("apply", "-k", o.toString()).ok("apply -k (the same Job name again)");
        String victim = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (victim == null && System.nanoTime() < deadline) {
            for (JsonNode p : pods(name)) {
                String pod = p.path("metadata").path("name").asText();
                if (p.path("metadata")
                                .path("annotations")
                                .path("batch.kubernetes.io/job-completion-index")
                                .asText()
                                .equals("1")
                        && kn("logs", pod).out().contains("Run: ")) {
                    victim = pod;
                }
            }
            Thread.sleep(500);
        }
        assertTrue(
                victim != null,
                "shard 1 never began its run: " + kn("get", "pods").out());
        Thread.sleep(2000);
        long t = System.nanoTime();
        kn("delete", "pod", victim, "--wait=true", "--timeout=120s").ok("delete pod");
        long deleteMs = (System.nanoTime() - t) / 1_000_000;
        log("run 2: kubectl delete pod " + victim + " mid-run: " + deleteMs + " ms (grace " + GRACE_S + " s)");
        assertTrue(deleteMs < GRACE_S * 1000, "ended itself, not killed at the grace period: " + deleteMs + " ms");
        String end = awaitJob(name, 240);
        Map<Integer, String> phases = phases(name);
        JsonNode status = job(name).path("status");
        log("run 2: " + end + "; pods " + phases + "; failedIndexes "
                + status.path("failedIndexes").asText() + ", completedIndexes "
                + status.path("completedIndexes").asText());
        assertEquals("1", status.path("failedIndexes").asText(), "shard 1's index failed, not retried");
        assertEquals("0,2", status.path("completedIndexes").asText(), "the others ran to their end");
        assertEquals("Succeeded/0", phases.get(0));
        assertEquals("Succeeded/0", phases.get(2));
        assertFalse(phases.containsKey(1) && phases.get(1).contains("Running"), "shard 1 not retried: " + phases);
        stopServer();
        String uid = job(name).path("metadata").path("uid").asText();
        Path copied = work.resolve("run-2");
        JsonNode m = copyAndMerge(name, uid, copied);
        JsonNode shard1 = JSON.readTree(copied.resolve("shard-1/summary.json").toFile());
        assertEquals("partial", shard1.path("status").asText());
        assertEquals(
                "interrupted (a signal: SIGINT, SIGTERM or SIGHUP)",
                shard1.path("stop_reason").asText());
        assertEquals("partial", m.path("status").asText());
        assertTrue(
                m.path("stop_reason")
                        .asText()
                        .contains("shard 1: partial (interrupted (a signal: SIGINT, SIGTERM or SIGHUP))"),
                m.path("stop_reason").asText());
        try (Stream<Path> runs = Files.list(hostResults.resolve(name))) {
            assertEquals(2, runs.count(), "two runs of one Job name, each under its own uid");
        }
    }

    /**
     * A shard that never gets ready (its pod held in its init container, as a pod Pending or pulling its image would
     * be): shard 0 ends the wait for all after {@code --ready-timeout} naming it, shards 0 and 1 fail their indexes
     * having sent nothing (the server logged no request), and the Job ends {@code Failed} at its
     * {@code activeDeadlineSeconds} (reason {@code DeadlineExceeded}) instead of staying open.
     */
    @Test
    @Order(4)
    void aShardThatNeverGetsReadyEndsTheWaitOfAllWithItsNameAndTheJobAtItsDeadline() throws Exception {
        startServer(work.resolve("server-3"));
        String name = JOB;
        kn("delete", "job", name, "--cascade=foreground", "--wait=true", "--timeout=120s")
                .ok("delete job");
        long readyS = 10;
        long deadlineS = 60;
        // Shard 2's init container waits until it is stopped (sh as PID 1 ends on SIGTERM, so the Job's end is not
        // held by a grace period); the others make their directories as job.yaml's does.
        Path o = overlay(name, """
                - {op: add, path: /spec/template/spec/containers/0/args/-, value: --ready-timeout}
                - {op: add, path: /spec/template/spec/containers/0/args/-, value: %ds}
                - {op: replace, path: /spec/activeDeadlineSeconds, value: %d}
                - op: replace
                  path: /spec/template/spec/initContainers/0/command
                  value: [sh, -c, "if [ $JOB_COMPLETION_INDEX = 2 ]; then trap 'exit 1' TERM; while :; do sleep 1; done; fi; exec install -d -o 10001 -g 10001 -m 0755 $@", results-dir]
                """.formatted(readyS, deadlineS));
        kn("apply", "-k", o.toString()).ok("apply -k (shard 2 never ready)");
        String end = awaitJob(name, deadlineS + 120);
        JsonNode job = job(name);
        JsonNode status = job.path("status");
        Instant started = Instant.parse(status.path("startTime").asText());
        Map<Integer, String> phases = phases(name);
        log("run 3 (shard 2 never ready): " + end + "; pods " + phases + "; failedIndexes "
                + status.path("failedIndexes").asText());
        assertTrue(end.equals("Failed (DeadlineExceeded)"), end);
        assertEquals("0,1", status.path("failedIndexes").asText(), "shards 0 and 1 gave up: " + phases);
        long serverCount = stopServer();
        assertEquals(0, serverCount, "nothing was run: the server logged no request");
        for (JsonNode p : pods(name)) {
            String index = p.path("metadata")
                    .path("annotations")
                    .path("batch.kubernetes.io/job-completion-index")
                    .asText();
            if (index.equals("2")) {
                continue;
            }
            JsonNode term = p.path("status")
                    .path("containerStatuses")
                    .path(0)
                    .path("state")
                    .path("terminated");
            long afterS = Instant.parse(term.path("finishedAt").asText()).getEpochSecond() - started.getEpochSecond();
            String said = kn("logs", p.path("metadata").path("name").asText(), "-c", "rubis-client")
                    .ok("logs")
                    .out();
            String flat = said.replaceAll("\\s+", " ");
            int at = flat.indexOf("shard 2 of 3 not ready within");
            String line = at < 0 ? "" : flat.substring(at, Math.min(flat.length(), at + 140));
            log("run 3: shard " + index + " exited " + term.path("exitCode").asInt() + " " + afterS
                    + " s after the Job's start: " + line.strip());
            assertTrue(term.path("exitCode").asInt() != 0, "shard " + index + " failed: " + term);
            assertTrue(afterS < deadlineS, "shard " + index + " gave up before the Job's deadline: " + afterS + " s");
            assertTrue(
                    flat.contains("the start handshake failed: shard 2 of 3 not ready within " + readyS + " s")
                            && line.contains("nothing was run"),
                    "shard " + index + " says which shard was not ready: " + said);
        }
    }
}
