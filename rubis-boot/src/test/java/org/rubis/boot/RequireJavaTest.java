package org.rubis.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The version rule and its one line; the jars' own check on a real Java 17 is the e2e module's OldJavaTest. */
class RequireJavaTest {

    @Test
    void readsEveryFormOfTheSpecificationVersion() {
        assertEquals(8, RequireJava.feature("1.8"));
        assertEquals(17, RequireJava.feature("17"));
        assertEquals(25, RequireJava.feature("25"));
        assertEquals(0, RequireJava.feature(null));
        assertEquals(0, RequireJava.feature("x"));
    }

    @Test
    void anOldJvmGetsOneLineWithTheFixAndANewOneNone() {
        assertEquals(
                "rubis-client needs Java 21+ (found 17 at /usr/lib/jvm/java-17): run it with bin/rubis-client, which"
                        + " finds a JDK 21+, or with a JDK 21+'s java -jar (e.g. apt-get install"
                        + " openjdk-21-jdk-headless)",
                RequireJava.problem("rubis-client", "bin/rubis-client", 21, 17, "/usr/lib/jvm/java-17"));
        assertEquals(
                "jmh/target/benchmarks.jar needs Java 25+ (found 8 at /j): run it with a JDK 25+'s java -jar (e.g."
                        + " apt-get install openjdk-25-jdk-headless)",
                RequireJava.problem("jmh/target/benchmarks.jar", null, 25, 8, "/j"));
        assertNull(RequireJava.problem("rubis-client", null, 21, 21, "/x"));
        assertNull(RequireJava.problem("rubis-client", null, 21, 25, "/x"));
    }
}
