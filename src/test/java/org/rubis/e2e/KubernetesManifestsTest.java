package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.StringReader;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * deploy/kubernetes/ read with fabric8's Kubernetes model: valid Job, ConfigMap, claim and pod
 * objects (no misspelt field left over), and the wiring docs/SHARDING.md needs: indexed
 * completion with parallelism = completions = N, the shard index from JOB_COMPLETION_INDEX, the
 * shard count equal to the completions, a start instant, a heap that fits the memory limit, the
 * ConfigMap mounted where the arguments point, and a configuration the client loads.
 */
class KubernetesManifestsTest {

    static final Path ROOT = Path.of(System.getProperty("rubis.properties.dir", "../../rubis-properties"))
            .toAbsolutePath()
            .getParent();
    static final Path K8S = ROOT.resolve("deploy/kubernetes");
    static final YAMLMapper YAML = YAMLMapper.builder().build();
    static final Pattern VAR = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    @TempDir
    Path tmp;

    static <T> T read(String file, Class<T> type) throws Exception {
        T t = YAML.readValue(K8S.resolve(file).toFile(), type);
        assertNoUnknownFields(t, file, new IdentityHashMap<>());
        return t;
    }

    /** fabric8 keeps unknown fields in additionalProperties: a misspelt field would be silently ignored by a cluster too. */
    static void assertNoUnknownFields(Object o, String where, Map<Object, Boolean> seen) throws Exception {
        if (o == null || seen.put(o, true) != null) {
            return;
        }
        if (o instanceof Collection<?> c) {
            for (Object x : c) {
                assertNoUnknownFields(x, where, seen);
            }
            return;
        }
        if (o instanceof Map<?, ?> m) {
            for (Object x : m.values()) {
                assertNoUnknownFields(x, where, seen);
            }
            return;
        }
        if (!o.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
            return;
        }
        for (Method g : o.getClass().getMethods()) {
            if (g.getParameterCount() != 0 || !g.getName().startsWith("get") || g.getDeclaringClass() == Object.class) {
                continue;
            }
            Object v = g.invoke(o);
            if (g.getName().equals("getAdditionalProperties")) {
                assertTrue(
                        ((Map<?, ?>) v).isEmpty(),
                        where + ": unknown field(s) " + ((Map<?, ?>) v).keySet() + " in "
                                + o.getClass().getSimpleName());
            } else {
                assertNoUnknownFields(v, where, seen);
            }
        }
    }

    static Container container(Job job) {
        List<Container> cs = job.getSpec().getTemplate().getSpec().getContainers();
        assertEquals(1, cs.size(), "one client container per pod");
        return cs.get(0);
    }

    static EnvVar env(Container c, String name) {
        return c.getEnv().stream()
                .filter(e -> e.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("env " + name + " is not defined in " + c.getName()));
    }

    static String option(List<String> args, String name) {
        int i = args.indexOf(name);
        assertTrue(i >= 0 && i + 1 < args.size(), name + " missing from the arguments " + args);
        return args.get(i + 1);
    }

    static long bytes(String jvmSize) {
        Matcher m = Pattern.compile("(\\d+)([kKmMgG]?)").matcher(jvmSize);
        assertTrue(m.matches(), jvmSize);
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2).toLowerCase()) {
            case "k" -> n << 10;
            case "m" -> n << 20;
            case "g" -> n << 30;
            default -> n;
        };
    }

    @Test
    void theJobIsIndexedWithOneShardPerCompletion() throws Exception {
        Job job = read("job.yaml", Job.class);
        assertEquals("batch/v1", job.getApiVersion());
        assertEquals("Job", job.getKind());
        assertEquals("Indexed", job.getSpec().getCompletionMode());
        int n = job.getSpec().getCompletions();
        assertTrue(n >= 1);
        assertEquals(n, job.getSpec().getParallelism(), "parallelism = completions: every shard runs at once");
        assertEquals("Never", job.getSpec().getTemplate().getSpec().getRestartPolicy());
        // A lost shard fails its own index and the others run on (a Job-wide backoffLimit: 0 ended them all).
        assertEquals(null, job.getSpec().getBackoffLimit(), "no Job-wide limit: each index has its own");
        assertEquals(1, job.getSpec().getBackoffLimitPerIndex(), "one retry, for a pod whose client never ran");
        assertTrue(
                job.getSpec().getMaxFailedIndexes() != null && job.getSpec().getMaxFailedIndexes() <= n - 1,
                "at most N - 1 failed indexes: the others keep running");
        var rules = job.getSpec().getPodFailurePolicy().getRules();
        assertEquals(1, rules.size());
        assertEquals(
                "FailIndex", rules.get(0).getAction(), "a shard whose client ran is not retried (it would start late)");
        assertEquals("rubis-client", rules.get(0).getOnExitCodes().getContainerName());
        assertEquals("NotIn", rules.get(0).getOnExitCodes().getOperator());
        assertEquals(List.of(0), rules.get(0).getOnExitCodes().getValues());

        Container c = container(job);
        List<String> args = c.getArgs();
        assertEquals("run", args.get(0));
        assertEquals("$(JOB_COMPLETION_INDEX)/$(RUBIS_SHARD_COUNT)", option(args, "--shard"));
        EnvVar index = env(c, "JOB_COMPLETION_INDEX");
        assertEquals(
                "metadata.annotations['batch.kubernetes.io/job-completion-index']",
                index.getValueFrom().getFieldRef().getFieldPath());
        assertEquals(
                String.valueOf(n), env(c, "RUBIS_SHARD_COUNT").getValue(), "the shard count equals the completions");
        assertEquals("$(RUBIS_START_AT)", option(args, "--start-at"));
        assertEquals("ready", env(c, "RUBIS_START_AT").getValue(), "the shards start when all are ready");
        // Kubernetes leaves an undefined $(VAR) as it is: every reference must be defined.
        List<String> defined = c.getEnv().stream().map(EnvVar::getName).toList();
        for (String a : concat(c.getCommand(), args)) {
            Matcher m = VAR.matcher(a);
            while (m.find()) {
                assertTrue(defined.contains(m.group(1)), "$(" + m.group(1) + ") in " + a + " is not defined");
            }
        }
        String out = option(args, "--out");
        assertTrue(out.endsWith("/shard-$(JOB_COMPLETION_INDEX)"), "each shard writes DIR/shard-I: " + out);
        assertTrue(out.contains("$(RUBIS_RUN_UID)"), "keyed by the Job's uid: a second run of one name writes anew");
        assertEquals(
                "metadata.labels['batch.kubernetes.io/controller-uid']",
                env(c, "RUBIS_RUN_UID").getValueFrom().getFieldRef().getFieldPath());
        assertEquals("/results", mountOf(job, c, out).getMountPath());
        // Kubernetes expands $(VAR) in an env value only from variables defined before it.
        List<String> order = c.getEnv().stream().map(EnvVar::getName).toList();
        for (EnvVar e : c.getEnv()) {
            Matcher m = VAR.matcher(e.getValue() == null ? "" : e.getValue());
            while (m.find()) {
                assertTrue(
                        order.indexOf(m.group(1)) >= 0 && order.indexOf(m.group(1)) < order.indexOf(e.getName()),
                        e.getName() + " uses $(" + m.group(1) + ") defined after it");
            }
        }
    }

    /**
     * The results volume is root-owned on hostPath, NFS and most ReadWriteMany CSI volumes (fsGroup is not applied to
     * them): a root init container makes exactly the directories of this run the client's user's.
     */
    @Test
    void aRootInitContainerMakesTheRunsDirectoriesTheClients() throws Exception {
        Job job = read("job.yaml", Job.class);
        Container c = container(job);
        var pod = job.getSpec().getTemplate().getSpec();
        List<Container> init = pod.getInitContainers();
        assertEquals(1, init.size());
        Container i = init.get(0);
        assertEquals(0L, i.getSecurityContext().getRunAsUser(), "root: it chowns");
        assertEquals(false, i.getSecurityContext().getAllowPrivilegeEscalation());
        assertEquals(List.of("install", "-d", "-o", "10001", "-g", "10001", "-m", "0755"), i.getCommand());
        assertEquals(
                String.valueOf(pod.getSecurityContext().getRunAsUser()),
                i.getCommand().get(3),
                "the directories' owner is the client's user");
        String out = option(c.getArgs(), "--out");
        assertEquals(out, i.getArgs().get(i.getArgs().size() - 1), "the init container makes the client's --out");
        for (String a : i.getArgs()) {
            assertTrue(out.startsWith(a), a + " is not a parent of " + out);
            Matcher m = VAR.matcher(a);
            while (m.find()) {
                EnvVar e = env(i, m.group(1));
                assertEquals(env(c, m.group(1)), e, m.group(1) + " the same in both containers");
            }
        }
        assertEquals(c.getImage(), i.getImage(), "install(1) is in the client image");
        assertEquals(i.getResources().getLimits(), i.getResources().getRequests(), "requests = limits: Guaranteed QoS");
        assertEquals("/results", i.getVolumeMounts().get(0).getMountPath());
    }

    /** The whole Job's deadline covers the ready wait, the run's phases and the live view's linger. */
    @Test
    void theJobsDeadlineCoversTheReadyWaitThePhasesAndTheLinger() throws Exception {
        Job job = read("job.yaml", Job.class);
        Container c = container(job);
        Properties props = new Properties();
        props.load(new StringReader(
                read("configmap.yaml", ConfigMap.class).getData().get("rubis.properties")));
        long phasesMs = Long.parseLong(props.getProperty("workload_up_ramp_time_in_ms"))
                + Long.parseLong(props.getProperty("workload_session_run_time_in_ms"))
                + Long.parseLong(props.getProperty("workload_down_ramp_time_in_ms"));
        String linger = option(c.getArgs(), "--metrics-linger");
        assertTrue(linger.matches("\\d+s"), linger);
        long lingerS = Long.parseLong(linger.replace("s", ""));
        long readyS = 300; // --ready-timeout's default (the Job gives none)
        assertFalse(c.getArgs().contains("--ready-timeout"));
        long deadline = job.getSpec().getActiveDeadlineSeconds();
        assertTrue(
                deadline >= readyS + phasesMs / 1000 + lingerS + 60,
                "activeDeadlineSeconds " + deadline + " < ready wait " + readyS + " s + phases " + phasesMs / 1000
                        + " s + linger " + lingerS + " s + a minute");
    }

    static List<String> concat(List<String> a, List<String> b) {
        List<String> l = new ArrayList<>(a);
        l.addAll(b);
        return l;
    }

    /** The volume mount under which {@code path} lies. */
    static VolumeMount mountOf(Job job, Container c, String path) {
        return c.getVolumeMounts().stream()
                .filter(m -> path.startsWith(m.getMountPath() + "/"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(path + " is on no mounted volume"));
    }

    static Volume volume(Job job, String name) {
        return job.getSpec().getTemplate().getSpec().getVolumes().stream()
                .filter(v -> v.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("volume " + name + " not defined"));
    }

    @Test
    void theClientJvmFitsItsResourceLimits() throws Exception {
        Container c = container(read("job.yaml", Job.class));
        Map<String, Quantity> limits = c.getResources().getLimits();
        Map<String, Quantity> requests = c.getResources().getRequests();
        assertNotNull(limits.get("memory"), "memory limit");
        assertNotNull(limits.get("cpu"), "cpu limit");
        assertEquals(limits, requests, "requests = limits: Guaranteed QoS");
        BigDecimal limit = limits.get("memory").getNumericalAmount();
        assertTrue(c.getCommand() == null || c.getCommand().isEmpty(), "the image's entrypoint runs the client");
        List<String> jvm = List.of(env(c, "JDK_JAVA_OPTIONS").getValue().split(" "));
        String xmx = jvm.stream()
                .filter(a -> a.startsWith("-Xmx"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no -Xmx in JDK_JAVA_OPTIONS " + jvm));
        long heap = bytes(xmx.substring(4));
        assertTrue(
                heap <= limit.longValue() * 3 / 4,
                xmx + " leaves less than a quarter of the " + limits.get("memory") + " limit for the JVM's "
                        + "own memory (metaspace, stacks, direct buffers)");
        assertTrue(heap >= limit.longValue() / 2, xmx + " wastes most of the " + limits.get("memory") + " limit");
        assertTrue(new BigDecimal("1").compareTo(limits.get("cpu").getNumericalAmount()) <= 0, "at least one core");
        String dockerfile = Files.readString(ROOT.resolve("deploy/container/Dockerfile"));
        assertTrue(
                dockerfile.lines().anyMatch(l -> l.matches("ARG BASE_IMAGE=eclipse-temurin:25-jre\\s*")),
                "Temurin 21 JRE base by default");
        assertTrue(
                dockerfile.lines().anyMatch(l -> l.matches("FROM \\$\\{BASE_IMAGE}\\s*")), "the base as an argument");
        assertTrue(
                dockerfile.contains("ENTRYPOINT [\"java\", \"-jar\", \"/opt/rubis/rubis-client.jar\"]"),
                "the entrypoint the Job relies on");
        assertTrue(
                dockerfile
                        .lines()
                        .anyMatch(l -> l.startsWith("COPY ")
                                && l.contains("rubis-cli/target/rubis-client.jar")
                                && l.endsWith(" /opt/rubis/")),
                "the image has the jar where the Job runs it");
        assertTrue(dockerfile.contains("USER 10001"), "the image's user is the one the Job runs as");
    }

    @Test
    void theConfigMapIsMountedWhereTheArgumentsPointAndTheClientLoadsIt() throws Exception {
        Job job = read("job.yaml", Job.class);
        Container c = container(job);
        ConfigMap cm = read("configmap.yaml", ConfigMap.class);
        assertEquals("v1", cm.getApiVersion());
        String p = option(c.getArgs(), "-p");
        VolumeMount mount = mountOf(job, c, p);
        assertTrue(mount.getReadOnly());
        Volume v = volume(job, mount.getName());
        assertNotNull(v.getConfigMap(), mount.getName() + " is a ConfigMap volume");
        assertEquals(cm.getMetadata().getName(), v.getConfigMap().getName());
        String key = p.substring(mount.getMountPath().length() + 1);
        assertTrue(
                v.getConfigMap().getItems() == null
                        || v.getConfigMap().getItems().isEmpty(),
                "whole map mounted: keys are file names");
        String text = cm.getData().get(key);
        assertNotNull(text, "the ConfigMap has no key " + key + " (the file -p reads)");

        Properties props = new Properties();
        props.load(new StringReader(text));
        assertNotNull(
                props.getProperty("client_seed"),
                "every shard needs the same explicit seed (the default is random per process)");
        String target = props.getProperty("client_target", "embedded");
        assertTrue(target.startsWith("http"), "a URL target: an embedded server per pod is not one system under test");
        assertFalse(target.contains("127.0.0.1") || target.contains("localhost"), "loopback is the pod itself");

        // The files the properties name are keys of the same map (they resolve against /etc/rubis/), verbatim copies of
        // ours.
        for (String k : List.of("workload_transition_table", "database_regions_file", "database_categories_file")) {
            String name = props.getProperty(k);
            assertNotNull(
                    name, k + " must name a file of the ConfigMap: the packaged default resolves against /etc/rubis/");
            assertNotNull(cm.getData().get(name), k + " = " + name + " is not a key of the ConfigMap");
        }
        for (Map.Entry<String, String> e : cm.getData().entrySet()) {
            if (!e.getKey().equals(key)) {
                assertEquals(
                        Files.readString(ROOT.resolve("rubis-properties").resolve(e.getKey())),
                        e.getValue(),
                        e.getKey() + " in the ConfigMap is a verbatim copy of rubis-properties/" + e.getKey());
            }
        }
        for (Map.Entry<String, String> e : cm.getData().entrySet()) {
            Files.writeString(tmp.resolve(e.getKey()), e.getValue());
        }
        Path file = tmp.resolve(key);
        Cli.Result r = Cli.run(tmp, 60, "validate", "-p", file.toString());
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("OK: loadable"), r.out());
        assertFalse(r.out().toLowerCase().contains("unknown"), "no misspelt key: " + r.out());
    }

    @Test
    void resultsGoToOneClaimThatTheResultsPodMounts() throws Exception {
        Job job = read("job.yaml", Job.class);
        PersistentVolumeClaim pvc = read("pvc.yaml", PersistentVolumeClaim.class);
        Pod pod = read("results/results-pod.yaml", Pod.class);
        Container c = container(job);
        Volume results =
                volume(job, mountOf(job, c, option(c.getArgs(), "--out")).getName());
        assertEquals(
                pvc.getMetadata().getName(), results.getPersistentVolumeClaim().getClaimName());
        assertTrue(pvc.getSpec().getAccessModes().contains("ReadWriteMany"), "pods on several nodes write to it");
        assertNotNull(pvc.getSpec().getResources().getRequests().get("storage"));
        assertEquals(
                pvc.getMetadata().getName(),
                pod.getSpec().getVolumes().get(0).getPersistentVolumeClaim().getClaimName());
        assertEquals(
                "/results",
                pod.getSpec().getContainers().get(0).getVolumeMounts().get(0).getMountPath());
        assertEquals(
                c.getImage(),
                pod.getSpec().getContainers().get(0).getImage(),
                "the results pod needs tar: the client image has it");
        assertNotNull(
                pod.getSpec().getContainers().get(0).getResources().getLimits().get("memory"));
        List<String> pid1 = pod.getSpec().getContainers().get(0).getCommand();
        assertTrue(
                pid1.size() == 3 && pid1.get(0).equals("sh") && pid1.get(2).startsWith("trap 'exit 0' TERM"),
                "PID 1 ends on SIGTERM (a bare sleep ignores it: every delete waited out the grace period): " + pid1);

        @SuppressWarnings("unchecked")
        Map<String, Object> k = YAML.readValue(K8S.resolve("kustomization.yaml").toFile(), Map.class);
        assertEquals("Kustomization", k.get("kind"));
        @SuppressWarnings("unchecked")
        List<String> resources = (List<String>) k.get("resources");
        assertEquals(Set.of("pvc.yaml", "configmap.yaml", "job.yaml"), Set.copyOf(resources));
        for (String f : resources) {
            assertTrue(Files.isRegularFile(K8S.resolve(f)), f);
        }
    }

    @Test
    void prometheusFindsEachShardsLiveView() throws Exception {
        Job job = read("job.yaml", Job.class);
        Container c = container(job);
        assertEquals("$(RUBIS_METRICS_PORT)", option(c.getArgs(), "--metrics-port"));
        assertEquals("$(RUBIS_METRICS_ADDRESS)", option(c.getArgs(), "--metrics-address"));
        String port = env(c, "RUBIS_METRICS_PORT").getValue();
        assertEquals("0.0.0.0", env(c, "RUBIS_METRICS_ADDRESS").getValue(), "reachable on the pod's address");
        ContainerPort named = c.getPorts().stream()
                .filter(p -> "metrics".equals(p.getName()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no container port named metrics"));
        assertEquals(port, String.valueOf(named.getContainerPort()));
        Map<String, String> annotations =
                job.getSpec().getTemplate().getMetadata().getAnnotations();
        assertEquals("true", annotations.get("prometheus.io/scrape"));
        assertEquals(port, annotations.get("prometheus.io/port"));
        assertEquals("/metrics", annotations.get("prometheus.io/path"));

        @SuppressWarnings("unchecked")
        Map<String, Object> monitor =
                YAML.readValue(K8S.resolve("podmonitor.yaml").toFile(), Map.class);
        assertEquals("monitoring.coreos.com/v1", monitor.get("apiVersion"));
        assertEquals("PodMonitor", monitor.get("kind"));
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) monitor.get("spec");
        @SuppressWarnings("unchecked")
        Map<String, String> selector =
                (Map<String, String>) ((Map<String, Object>) spec.get("selector")).get("matchLabels");
        Map<String, String> podLabels =
                job.getSpec().getTemplate().getMetadata().getLabels();
        selector.forEach((k, v) -> assertEquals(v, podLabels.get(k), "the PodMonitor selects the Job's pods: " + k));
        @SuppressWarnings("unchecked")
        Map<String, Object> endpoint = ((List<Map<String, Object>>) spec.get("podMetricsEndpoints")).get(0);
        assertEquals("metrics", endpoint.get("port"), "the container port's name");
        assertEquals("/metrics", endpoint.get("path"));
    }

    /**
     * The one-node overlay: every shard and the results pod fit on a node of 2 CPUs by their requests, the heap fits
     * the smaller limit, and each shard on the node's network has its own live view port.
     */
    @Test
    void theOneNodeOverlayFitsTwoCpusAndGivesEachShardItsPort() throws Exception {
        Job base = read("job.yaml", Job.class);
        Job one = read("../one-node/job-one-node.yaml", Job.class);
        int n = base.getSpec().getCompletions();
        assertTrue(one.getSpec().getTemplate().getSpec().getHostNetwork(), "the node's network");
        Container c = container(one);
        BigDecimal cpu = c.getResources().getRequests().get("cpu").getNumericalAmount();
        Pod results = read("results/results-pod.yaml", Pod.class);
        BigDecimal resultsCpu = results.getSpec()
                .getContainers()
                .get(0)
                .getResources()
                .getRequests()
                .get("cpu")
                .getNumericalAmount();
        assertTrue(
                cpu.multiply(BigDecimal.valueOf(n)).add(resultsCpu).compareTo(new BigDecimal("2")) <= 0,
                n + " pods of " + cpu + " CPU and the results pod's " + resultsCpu + " exceed 2 CPUs");
        long limit =
                c.getResources().getLimits().get("memory").getNumericalAmount().longValue();
        String xmx = List.of(env(c, "JDK_JAVA_OPTIONS").getValue().split(" ")).stream()
                .filter(a -> a.startsWith("-Xmx"))
                .findFirst()
                .orElseThrow();
        assertTrue(bytes(xmx.substring(4)) <= limit * 3 / 4, xmx + " in a " + limit + " B limit");
        assertEquals("940$(JOB_COMPLETION_INDEX)", env(c, "RUBIS_METRICS_PORT").getValue());
        // kustomize puts a patch's list entries first: the index must come before the port that uses it.
        List<String> order = c.getEnv().stream().map(EnvVar::getName).toList();
        assertTrue(
                order.indexOf("JOB_COMPLETION_INDEX") == 0 && order.indexOf("RUBIS_METRICS_PORT") == 1,
                order.toString());
        assertEquals(env(container(base), "JOB_COMPLETION_INDEX"), env(c, "JOB_COMPLETION_INDEX"));
        assertTrue(n <= 10, "ports 9400-9409: at most 10 shards on one node");
        String k = Files.readString(ROOT.resolve("deploy/one-node/kustomization.yaml"));
        assertTrue(k.contains("path: /spec/template/spec/containers/0/ports"), "no host port per pod");
        String pv = Files.readString(ROOT.resolve("deploy/one-node/pv.yaml"));
        assertTrue(pv.contains("hostPath:"), pv);
    }
}
