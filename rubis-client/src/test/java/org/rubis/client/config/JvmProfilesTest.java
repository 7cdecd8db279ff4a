package org.rubis.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.TestFiles;
import org.rubis.client.input.ConfigException;
import org.rubis.client.process.ChildJvm;

class JvmProfilesTest {

    @TempDir
    Path tmp;

    @Test
    void packagedProfilesAndUserAdditions() {
        JvmProfiles p = JvmProfiles.load(null);
        assertEquals(List.of("-Xmx64m", "-XX:+UseSerialGC"), p.flags("paper-default"));
        assertEquals(List.of("-Xmx512m"), p.flags("paper-tuned"));
        assertEquals(List.of("-Xint", "-Xmx1g"), p.flags("no-jit"));
        assertEquals(List.of(), p.flags("default"));
        for (String name : List.of("g1", "parallel", "zgc")) {
            assertTrue(p.flags(name).size() >= 1, name);
        }
        Path mine =
                TestFiles.write(tmp, "mine.properties", "tiny = -Xmx24m -XX:+UseSerialGC\npaper-tuned = -Xmx768m\n");
        JvmProfiles q = JvmProfiles.load(mine);
        assertEquals(List.of("-Xmx24m", "-XX:+UseSerialGC"), q.flags("tiny"));
        assertEquals(List.of("-Xmx768m"), q.flags("paper-tuned"), "a user file overrides");
        String m = assertThrows(ConfigException.class, () -> p.flags("gnu")).getMessage();
        assertTrue(m.startsWith("--jvm-profile gnu: unknown profile; known: paper-default, paper-tuned"), m);
    }

    /** capacity printed "JVM profile default ()" for the flagless profile. */
    @Test
    void aProfileIsDescribedWithItsFlagsOrSaysItHasNone() {
        assertEquals(
                "default (no flags: the JVM's own defaults)",
                JvmProfiles.describe("default", JvmProfiles.load(null).flags("default")));
        assertEquals(
                "paper-default (-Xmx64m -XX:+UseSerialGC)",
                JvmProfiles.describe("paper-default", List.of("-Xmx64m", "-XX:+UseSerialGC")));
    }

    @Test
    void aJavaThatIsNotAnExecutableIsOneLineNamingTheOption() {
        String m = assertThrows(ConfigException.class, () -> ChildJvm.java(tmp.resolve("nojava")))
                .getMessage();
        assertTrue(m.startsWith("--java " + tmp.resolve("nojava") + ": not an executable file"), m);
    }
}
