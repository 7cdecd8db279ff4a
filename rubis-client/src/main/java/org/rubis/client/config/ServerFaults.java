package org.rubis.client.config;

import org.rubis.client.input.ConfigException;
import org.rubis.format.fault.FaultSpec;

/** The {@code server_faults} key: a fault spec for the embedded server, checked at load. */
final class ServerFaults {

    private ServerFaults() {}

    /** The spec text ("" for none); a malformed spec is a one-line error naming the key. */
    static String check(Settings s, String key, String def) {
        String text = s.string(key, def);
        try {
            return FaultSpec.parse(text).toString();
        } catch (IllegalArgumentException e) {
            throw new ConfigException(s.where(s.entry(key).orElseThrow()) + ": " + e.getMessage());
        }
    }
}
