package org.rubis.lab.reproduce;

import java.util.ArrayList;
import java.util.List;

/**
 * One client run of an experiment: the {@code run} arguments, the JVM profile of the client, the
 * flags of the server started for it (ignored with {@code --target URL}). Immutable; the {@code with...}
 * methods return a changed copy.
 *
 * @param args        arguments of {@code rubis-client run} (no {@code --target}, no {@code --out}: the lab adds them)
 * @param profile     JVM profile of the client JVM ({@code default}: the JVM's own ergonomics)
 * @param serverFlags flags of {@code rubis-server} (model, CPU demand, TLS)
 * @param https       the server serves HTTPS
 */
public record ClientSpec(List<String> args, String profile, List<String> serverFlags, boolean https) {

    public ClientSpec {
        args = List.copyOf(args);
        serverFlags = List.copyOf(serverFlags);
    }

    /** A run with these arguments, the default JVM profile, the default event server, no capture. */
    public static ClientSpec of(String... args) {
        return new ClientSpec(List.of(args), "default", List.of(), false);
    }

    public ClientSpec with(String... more) {
        List<String> a = new ArrayList<>(args);
        a.addAll(List.of(more));
        return new ClientSpec(a, profile, serverFlags, https);
    }

    public ClientSpec withProfile(String name) {
        return new ClientSpec(args, name, serverFlags, https);
    }

    public ClientSpec withServer(String... flags) {
        List<String> f = new ArrayList<>(serverFlags);
        f.addAll(List.of(flags));
        return new ClientSpec(args, profile, f, https || f.contains("--tls"));
    }

    /** The run captures its packets and checks every request against the wire ({@code run --capture}). */
    public ClientSpec withCapture() {
        return with("--capture");
    }
}
