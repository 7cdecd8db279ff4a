package org.rubis.client.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.rubis.client.input.ConfigException;

/**
 * JVM flags taken from a configuration file ({@code server_java_options}, JVM profile files),
 * checked against an allow-list before they reach a {@code java} command line. A properties file
 * must not be able to run a program ({@code -XX:OnOutOfMemoryError=SCRIPT}), load an agent or a
 * class, or read more flags from elsewhere ({@code @argfile}, {@code -XX:Flags=}); so only heap,
 * GC and tuning flags pass, and anything unknown is refused rather than guessed safe.
 *
 * <p>Allowed: {@code -Xmx -Xms -Xss -Xmn} with a size, {@code -Xint}, {@code -server};
 * {@code -XX:+/-Flag} for the boolean GC/heap/JIT flags in {@link #BOOLEAN_FLAGS};
 * {@code -XX:Flag=number} for the numeric flags in {@link #NUMERIC_FLAGS};
 * {@code -Dkey=value} for the keys in {@link #PROPERTIES} with a plain value. See docs/FAULTS.md.
 */
public final class JvmOptions {

    /** Boolean {@code -XX:+Flag}/{@code -XX:-Flag} flags: collectors, heap layout, JIT tiers. */
    public static final Set<String> BOOLEAN_FLAGS = Set.of(
            "UseSerialGC",
            "UseParallelGC",
            "UseG1GC",
            "UseZGC",
            "ZGenerational",
            "UseShenandoahGC",
            "UseEpsilonGC",
            "UseCompressedOops",
            "UseCompressedClassPointers",
            "UseCompactObjectHeaders",
            "UseStringDeduplication",
            "AlwaysPreTouch",
            "UseNUMA",
            "UseLargePages",
            "UseTransparentHugePages",
            "TieredCompilation",
            "UseAdaptiveSizePolicy",
            "ParallelRefProcEnabled",
            "DisableExplicitGC",
            "ExplicitGCInvokesConcurrent",
            "UseContainerSupport",
            "PerfDisableSharedMem",
            "UnlockExperimentalVMOptions",
            "BackgroundCompilation",
            "UseDynamicNumberOfGCThreads",
            "ScavengeBeforeFullGC",
            "UseTLAB",
            "ResizeTLAB");

    /** Numeric {@code -XX:Flag=value} flags (value: digits, optional fraction, optional k/m/g/t). */
    public static final Set<String> NUMERIC_FLAGS = Set.of(
            "MaxGCPauseMillis",
            "GCPauseIntervalMillis",
            "ActiveProcessorCount",
            "ParallelGCThreads",
            "ConcGCThreads",
            "MaxHeapSize",
            "InitialHeapSize",
            "MinHeapSize",
            "SoftMaxHeapSize",
            "NewSize",
            "MaxNewSize",
            "NewRatio",
            "SurvivorRatio",
            "MaxTenuringThreshold",
            "InitialTenuringThreshold",
            "InitiatingHeapOccupancyPercent",
            "G1HeapRegionSize",
            "G1ReservePercent",
            "G1NewSizePercent",
            "G1MaxNewSizePercent",
            "MetaspaceSize",
            "MaxMetaspaceSize",
            "ReservedCodeCacheSize",
            "MaxRAMPercentage",
            "InitialRAMPercentage",
            "MinRAMPercentage",
            "MaxRAM",
            "TieredStopAtLevel",
            "CICompilerCount",
            "MaxDirectMemorySize",
            "GCTimeRatio",
            "MinHeapFreeRatio",
            "MaxHeapFreeRatio",
            "ThreadStackSize",
            "CompileThreshold",
            "MaxInlineLevel",
            "TLABSize",
            "ZCollectionInterval",
            "ZAllocationSpikeTolerance");

    /** System properties a profile may set; none of them names a class or a file to load. */
    public static final Set<String> PROPERTIES = Set.of(
            "file.encoding",
            "java.net.preferIPv4Stack",
            "java.net.preferIPv6Addresses",
            "networkaddress.cache.ttl",
            "io.netty.allocator.type",
            "io.netty.leakDetection.level",
            "io.netty.transport.noNative",
            "io.netty.eventLoopThreads",
            "io.netty.noUnsafe",
            "jdk.virtualThreadScheduler.parallelism",
            "jdk.virtualThreadScheduler.maxPoolSize");

    private static final Pattern SIZE = Pattern.compile("[0-9]{1,15}[kKmMgGtT]?");
    private static final Pattern NUMBER = Pattern.compile("[0-9]{1,15}(\\.[0-9]{1,6})?[kKmMgGtT]?");
    private static final Pattern PLAIN_VALUE = Pattern.compile("[A-Za-z0-9_.:-]{0,64}");

    private final List<String> flags;

    private JvmOptions(List<String> flags) {
        this.flags = List.copyOf(flags);
    }

    /**
     * Splits {@code text} on white space and checks every flag.
     *
     * @param where what to name in the error, e.g. {@code rubis.properties:12: server_java_options}
     * @throws ConfigException one line naming {@code where} and the refused flag
     */
    public static JvmOptions parse(String text, String where) {
        List<String> out = new ArrayList<>();
        if (text != null) {
            for (String f : text.strip().split("\\s+")) {
                if (f.isEmpty()) {
                    continue;
                }
                String why = refusal(f);
                if (why != null) {
                    throw new ConfigException(
                            where + ": JVM flag \"" + shorten(f) + "\" refused: " + why
                                    + "; only heap, GC and tuning flags are allowed (e.g. -Xmx1g -XX:+UseG1GC -XX:MaxGCPauseMillis=50), see docs/FAULTS.md");
                }
                out.add(f);
            }
        }
        return new JvmOptions(out);
    }

    /** The flags in order, each one allowed. */
    public List<String> flags() {
        return flags;
    }

    /** The flags joined by single spaces. */
    public String text() {
        return String.join(" ", flags);
    }

    /** Why {@code flag} is refused, or null when it is allowed. */
    static String refusal(String flag) {
        if (flag.startsWith("@")) {
            return "an argument file would add flags that are not checked";
        }
        if (flag.startsWith("-javaagent") || flag.startsWith("-agentlib") || flag.startsWith("-agentpath")) {
            return "it loads an agent (code)";
        }
        for (String size : List.of("-Xmx", "-Xms", "-Xss", "-Xmn")) {
            if (flag.startsWith(size)) {
                return SIZE.matcher(flag.substring(size.length())).matches()
                        ? null
                        : "expected a size such as " + size + "512m";
            }
        }
        if (flag.equals("-Xint") || flag.equals("-server")) {
            return null;
        }
        if (flag.startsWith("-XX:")) {
            String body = flag.substring(4);
            if (body.startsWith("OnError") || body.startsWith("OnOutOfMemoryError")) {
                return "it runs a command";
            }
            if (body.startsWith("Flags") || body.startsWith("VMOptionsFile")) {
                return "it reads flags from a file that is not checked";
            }
            if (body.startsWith("+") || body.startsWith("-")) {
                return BOOLEAN_FLAGS.contains(body.substring(1)) ? null : "not a known heap/GC/tuning switch";
            }
            int eq = body.indexOf('=');
            if (eq > 0 && NUMERIC_FLAGS.contains(body.substring(0, eq))) {
                return NUMBER.matcher(body.substring(eq + 1)).matches()
                        ? null
                        : "expected a number such as -XX:" + body.substring(0, eq) + "=100";
            }
            return "not a known heap/GC/tuning setting";
        }
        if (flag.startsWith("-D")) {
            int eq = flag.indexOf('=');
            String key = eq < 0 ? flag.substring(2) : flag.substring(2, eq);
            if (!PROPERTIES.contains(key)) {
                return "system property " + key + " is not on the allow-list ("
                        + String.join(", ", new TreeSet<>(PROPERTIES)) + ")";
            }
            return eq < 0 || PLAIN_VALUE.matcher(flag.substring(eq + 1)).matches()
                    ? null
                    : "expected a plain value (letters, digits, . _ : -)";
        }
        return "not a heap, GC or tuning flag";
    }

    private static String shorten(String f) {
        String s = f.length() > 80 ? f.substring(0, 80) + "..." : f;
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(c -> b.append(Character.isISOControl(c) ? '?' : (char) c));
        return b.toString();
    }

    @Override
    public String toString() {
        return text();
    }
}
