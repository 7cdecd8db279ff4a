package org.rubis.client.cli;

import org.rubis.client.config.ClientConfig;
import org.rubis.client.preflight.Preflight;

/** The pre-flight of a configuration's URL target, with the configuration's own database keys and timeouts. */
final class TargetPreflight {

    private TargetPreflight() {}

    static Preflight of(ClientConfig c) {
        return new Preflight(
                c.workload(),
                c.target(),
                c.execution().connectTimeoutMs(),
                c.workload().policy().oldItems(),
                c.regionsFile().displayName(),
                c.categoriesFile().displayName(),
                false);
    }
}
