package org.rubis.client.backend;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;

/** Backends configured as a run configures them (ConfigLoader's properties), for the backend tests. */
final class TestBackends {

    private TestBackends() {}

    /** The execution settings of {@code backend} with the properties {@code keyValues} (key, value, key, value...). */
    static ClientConfig.Execution execution(String backend, String... keyValues) {
        Map<String, String> p = new HashMap<>();
        p.put("client_backend", backend);
        for (int i = 0; i < keyValues.length; i += 2) {
            p.put(keyValues[i], keyValues[i + 1]);
        }
        return ConfigLoader.load((Path) null, p).execution();
    }

    /** {@code backend} for {@code base}, made by {@link Backends#create} with those properties. */
    static Backend create(String backend, String base, String... keyValues) {
        return Backends.create(execution(backend, keyValues), base);
    }

    /** {@link #create} with a connect timeout of 2 s, a request timeout of {@code requestTimeoutMs}, images or not. */
    static Backend create(String backend, String base, int requestTimeoutMs, boolean images) {
        return create(
                backend,
                base,
                "client_connect_timeout_ms",
                "2000",
                "client_request_timeout_ms",
                String.valueOf(requestTimeoutMs),
                "client_download_images",
                images ? "yes" : "no",
                "client_pool_max",
                "4");
    }
}
