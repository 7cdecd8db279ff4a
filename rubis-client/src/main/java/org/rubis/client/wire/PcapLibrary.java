package org.rubis.client.wire;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Points pcap4j at the installed libpcap. pcap4j asks JNA for "pcap", which only finds {@code libpcap.so}, a
 * link that Debian ships in the -dev package; the runtime package (libpcap0.8) has {@code libpcap.so.0.8}.
 * pcap4j reads the library name from a system property once, when its native mappings load, so this runs
 * before the first pcap4j call. A name the user set explicitly is kept.
 */
final class PcapLibrary {
    static final String PROPERTY = "org.pcap4j.core.pcapLibName";
    private static final String[] NAMES = {"libpcap.so", "libpcap.so.1", "libpcap.so.0.8"};
    private static final String[] DIRS = {
        "/usr/lib/x86_64-linux-gnu",
        "/lib/x86_64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu",
        "/lib/aarch64-linux-gnu",
        "/usr/lib64",
        "/lib64",
        "/usr/lib",
        "/lib",
        "/usr/local/lib"
    };

    private PcapLibrary() {}

    /** Sets the property to the first libpcap found in the usual places, unless already set; returns it. */
    static synchronized String configure() {
        String set = System.getProperty(PROPERTY);
        if (set != null && !set.isBlank()) {
            return set;
        }
        for (Path candidate : candidates()) {
            if (Files.isReadable(candidate)) {
                System.setProperty(PROPERTY, candidate.toString());
                return candidate.toString();
            }
        }
        return null;
    }

    private static List<Path> candidates() {
        List<Path> out = new ArrayList<>();
        for (String dir : DIRS) {
            for (String name : NAMES) {
                out.add(Path.of(dir, name));
            }
        }
        return out;
    }
}
