package org.rubis.boot;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.security.CodeSource;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The Main-Class of the shaded jars (rubis-client, rubis-server, rubis-analysis, the JMH benchmarks). Compiled for Java
 * 8, it runs on any JVM a user may have as {@code java}, and checks that JVM against the release the build compiled the
 * program for, which the jar's manifest states ({@code Rubis-Java}, from the parent pom's
 * {@code maven.compiler.release}: the one place that says it). On an older JVM it prints one line naming the program,
 * the release it needs, the one it found and the fix, and exits; else it starts the program's main
 * ({@code Rubis-Main-Class}). Without it Java 17 prints a stack trace of {@code UnsupportedClassVersionError}, and
 * JMH's launcher, which loads the benchmarks it can, silently lists 2 of 13.
 */
public final class RequireJava {

    private RequireJava() {}

    public static void main(String[] args) throws Throwable {
        Attributes a = manifest();
        String program = a.getValue("Rubis-Program");
        String main = a.getValue("Rubis-Main-Class");
        int required = Integer.parseInt(a.getValue("Rubis-Java").trim());
        int found = feature(System.getProperty("java.specification.version"));
        String problem =
                problem(program, a.getValue("Rubis-Launcher"), required, found, System.getProperty("java.home"));
        if (problem != null) {
            System.err.println(problem);
            System.exit(Integer.parseInt(a.getValue("Rubis-Old-Java-Status").trim()));
        }
        Method m = Class.forName(main).getMethod("main", String[].class);
        try {
            m.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause(); // the program's own failure, as if it had been the Main-Class
        }
    }

    /**
     * The one line for a JVM of feature release {@code found} (at {@code javaHome}) too old for {@code required}, or
     * null when it is new enough; {@code launcher}, the program's launcher in bin/ (null when it has none).
     */
    static String problem(String program, String launcher, int required, int found, String javaHome) {
        if (found >= required) {
            return null;
        }
        return program + " needs Java " + required + "+ (found " + (found > 0 ? String.valueOf(found) : "unknown")
                + " at " + javaHome + "): run it with "
                + (launcher == null ? "" : launcher + ", which finds a JDK " + required + "+, or with ")
                + "a JDK " + required + "+'s java -jar (e.g. apt-get install openjdk-" + required + "-jdk-headless)";
    }

    /** The feature release of a {@code java.specification.version}: 8 for "1.8", 17 for "17"; 0 when unreadable. */
    static int feature(String spec) {
        if (spec == null) {
            return 0;
        }
        String s = spec.startsWith("1.") ? spec.substring(2) : spec;
        int end = 0;
        while (end < s.length() && Character.isDigit(s.charAt(end))) {
            end++;
        }
        return end == 0 ? 0 : Integer.parseInt(s.substring(0, end));
    }

    /** The manifest of the jar this class was loaded from. */
    private static Attributes manifest() throws IOException, URISyntaxException {
        CodeSource source = RequireJava.class.getProtectionDomain().getCodeSource();
        File jar = new File(source.getLocation().toURI());
        try (JarFile f = new JarFile(jar)) {
            Manifest m = f.getManifest();
            if (m == null || m.getMainAttributes().getValue("Rubis-Main-Class") == null) {
                throw new IllegalStateException(jar + ": no Rubis-Main-Class in its manifest (a jar not built by the"
                        + " project's shade configuration)");
            }
            return m.getMainAttributes();
        }
    }
}
