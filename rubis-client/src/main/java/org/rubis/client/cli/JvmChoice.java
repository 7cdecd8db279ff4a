package org.rubis.client.cli;

import java.nio.file.Path;
import java.util.List;
import org.rubis.client.config.JvmProfiles;
import org.rubis.client.process.ChildJvm;
import org.rubis.client.process.ClientCommandLine;
import picocli.CommandLine.Option;

/**
 * The options that choose the JVM a client runs in: a JVM profile (named flags), a file of more profiles, the java
 * executable. {@code run} takes them to run in a child JVM, {@code capacity} for each of its steps; one block, so that
 * both accept and check the same.
 */
public final class JvmChoice {

    @Option(
            names = "--jvm-profile",
            paramLabel = "NAME",
            description = "Run the client in a JVM with this profile's flags (paper-default, paper-tuned, g1, "
                    + "parallel, zgc, no-jit, default, or your own).")
    String profile;

    @Option(
            names = "--jvm-profiles",
            paramLabel = "FILE",
            description = "Extra JVM profiles (name = flags), added to the packaged ones.")
    Path profiles;

    @Option(
            names = "--java",
            paramLabel = "PATH",
            description = "The java executable of the client's JVM (default: this one).")
    Path java;

    /** No profile unless given. */
    public JvmChoice() {}

    /** {@code profile} unless another is given. */
    public JvmChoice(String profile) {
        this.profile = profile;
    }

    /** A profile or a java was chosen. */
    public boolean given() {
        return profile != null || java != null;
    }

    /** The profile's name ({@code default}, the JVM's own defaults, when none was chosen). */
    public String profile() {
        return profile == null ? "default" : profile;
    }

    /** The profile's flags; an unknown profile or a bad profiles file is a one-line error. */
    public List<String> flags() {
        return JvmProfiles.load(profiles).flags(profile());
    }

    /** {@code line} in the chosen JVM: its java and the profile's flags. */
    public ClientCommandLine applyTo(ClientCommandLine line) {
        return line.java(ChildJvm.java(java)).profile(profile(), flags());
    }
}
