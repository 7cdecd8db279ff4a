package org.rubis.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.TestFiles;
import org.rubis.client.input.ConfigException;

class JvmOptionsTest {

    @TempDir
    Path tmp;

    @Test
    void heapGcAndTuningFlagsPass() {
        String ok = "-Xmx1g -Xms512m -Xss256k -Xmn64m -Xint -XX:+UseG1GC -XX:-UseCompressedOops -XX:MaxGCPauseMillis=50"
                + " -XX:ActiveProcessorCount=2 -XX:+UseZGC -XX:MaxRAMPercentage=75.5 -Dio.netty.leakDetection.level=disabled";
        assertEquals(List.of(ok.split(" ")), JvmOptions.parse(ok, "k").flags());
        assertEquals(List.of(), JvmOptions.parse("   ", "k").flags());
    }

    @Test
    void everyFlagThatRunsOrLoadsCodeIsRefusedNamingKeyAndFlag() {
        for (String bad : List.of(
                "-XX:OnOutOfMemoryError=/tmp/x.sh",
                "-XX:OnError=sh",
                "-javaagent:/tmp/a.jar",
                "-agentlib:jdwp=transport=dt_socket",
                "-agentpath:/tmp/lib.so",
                "@/tmp/args",
                "-XX:Flags=/tmp/f",
                "-XX:VMOptionsFile=/tmp/f",
                "-Djava.security.manager=allow",
                "-Djava.system.class.loader=Evil",
                "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "-cp",
                "/tmp",
                "-jar",
                "-XX:+UnlockDiagnosticVMOptions",
                "-XX:+PrintAssembly",
                "-Xlog:gc:file=/etc/passwd",
                "-Xmx1g;rm",
                "-XX:MaxGCPauseMillis=1;x",
                "-Dfile.encoding=UTF-8$(id)",
                "-XX:CompileCommand=option",
                "-Xbootclasspath/a:/tmp")) {
            String m = assertThrows(
                            ConfigException.class,
                            () -> JvmOptions.parse("-Xmx1g " + bad, "rubis.properties:3: server_java_options"),
                            bad)
                    .getMessage();
            assertTrue(m.startsWith("rubis.properties:3: server_java_options: JVM flag \"" + bad + "\" refused: "), m);
            assertEquals(-1, m.indexOf('\n'), m);
        }
    }

    /** The exploit of issue 13: a properties file made the embedded server's JVM run a script on OOM. */
    @Test
    void theOnOutOfMemoryErrorExploitInAPropertiesFileIsRefusedAtLoad() throws Exception {
        for (String f : new String[] {"default_transitions.txt", "ebay_regions.txt", "ebay_simple_categories.txt"}) {
            Files.copy(TestFiles.propertiesDir().resolve(f), tmp.resolve(f));
        }
        Path p = TestFiles.write(tmp, "rubis.properties", """
                database_number_of_users = 100
                workload_session_run_time_in_ms = 1000
                workload_transition_table = default_transitions.txt
                server_java_options = -Xmx16m -XX:OnOutOfMemoryError=/tmp/pwn.sh
                """);
        String m = assertThrows(ConfigException.class, () -> ConfigLoader.load(p, Map.of()))
                .getMessage();
        assertTrue(
                m.startsWith(
                        p
                                + ":4: server_java_options: JVM flag \"-XX:OnOutOfMemoryError=/tmp/pwn.sh\" refused: it runs a command"),
                m);
        String o = assertThrows(
                        ConfigException.class,
                        () -> ConfigLoader.load(p, Map.of("server_java_options", "-javaagent:/tmp/a.jar")))
                .getMessage();
        assertTrue(o.startsWith("command line: -Dserver_java_options: JVM flag \"-javaagent:/tmp/a.jar\" refused"), o);
    }

    @Test
    void aProfileFileWithACommandIsRefusedNamingFileAndLine() {
        Path mine = TestFiles.write(
                tmp, "mine.properties", "tiny = -Xmx24m\n# c\nevil = -Xmx24m -XX:OnOutOfMemoryError=kill\n");
        String m = assertThrows(ConfigException.class, () -> JvmProfiles.load(mine))
                .getMessage();
        assertTrue(m.startsWith(mine + ":3: profile evil: JVM flag \"-XX:OnOutOfMemoryError=kill\" refused"), m);
        assertTrue(JvmProfiles.load(null).all().size() >= 7, "the packaged profiles pass");
    }
}
