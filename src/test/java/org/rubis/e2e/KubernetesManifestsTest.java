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
        assertEquals(0, job.getSpec().getBackoffLimit(), "a retried shard would start late");
        assertEquals("Never", job.getSpec().getTemplate().getSpec().getRestartPolicy());

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
        assertNotNull(env(c, "RUBIS_START_AT").getValue(), "a start instant is passed in");
        // Kubernetes leaves an undefined $(VAR) as it is: every reference must be defined.
        List<String> defined = c.getEnv().stream().map(EnvVar::getName).toList();
        for (String a : concat(c.getCommand(), args)) {
            Matcher m = VAR.matcher(a);
            while (m.find()) {
                assertTrue(defined.contains(m.group(1)), "$(" + m.group(1) + ") in " + a + " is not defined");
            }
        }
        String out = option(args, "--out");
        assertTrue(out.contains("$(JOB_COMPLETION_INDEX)"), "each shard writes its own directory: " + out);
        assertEquals("/results", mountOf(job, c, out).getMountPath());
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
        List<String> cmd = c.getCommand();
        assertEquals("java", cmd.get(0));
        String xmx = cmd.stream()
                .filter(a -> a.startsWith("-Xmx"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no -Xmx in " + cmd));
        long heap = bytes(xmx.substring(4));
        assertTrue(
                heap <= limit.longValue() * 3 / 4,
                xmx + " leaves less than a quarter of the " + limits.get("memory") + " limit for the JVM's "
                        + "own memory (metaspace, stacks, direct buffers)");
        assertTrue(heap >= limit.longValue() / 2, xmx + " wastes most of the " + limits.get("memory") + " limit");
        assertTrue(new BigDecimal("1").compareTo(limits.get("cpu").getNumericalAmount()) <= 0, "at least one core");
        int jar = cmd.indexOf("-jar");
        assertTrue(jar > 0 && cmd.get(jar + 1).equals("/opt/rubis/rubis-client.jar"), cmd.toString());
        String dockerfile = Files.readString(ROOT.resolve("deploy/container/Dockerfile"));
        assertTrue(
                dockerfile.lines().anyMatch(l -> l.matches("FROM eclipse-temurin:21-jre\\s*")), "Temurin 21 JRE base");
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
        Pod pod = read("results-pod.yaml", Pod.class);
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
        String port = option(c.getArgs(), "--metrics-port");
        assertEquals("0.0.0.0", option(c.getArgs(), "--metrics-address"), "reachable on the pod's address");
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
}
