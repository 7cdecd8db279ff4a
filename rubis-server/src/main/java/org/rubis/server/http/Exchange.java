package org.rubis.server.http;

import org.rubis.server.app.Response;
import org.rubis.server.app.RubisApp;
import org.rubis.server.truth.GroundTruth;

/**
 * What both server models do with one request: route it to the application or the admin
 * endpoint, and tell whether it counts in the ground truth.
 */
final class Exchange {

    static final String ADMIN_PREFIX = "/rubis-server/";

    private Exchange() {}

    static boolean isAdmin(String uri) {
        return uri.startsWith(ADMIN_PREFIX);
    }

    static Response respond(RubisApp app, GroundTruth truth, String uri) {
        if (isAdmin(uri)) {
            return uri.startsWith(ADMIN_PREFIX + "stats")
                    ? Response.json("Stats", truth.statsJson())
                    : Response.notFound(uri);
        }
        return app.handle(uri);
    }

    static boolean isErrorPage(Response r) {
        byte[] b = r.body();
        // "ERROR" as the PHP error page prints it; searched in bytes to avoid decoding the page.
        outer:
        for (int i = 0; i + 5 <= b.length; i++) {
            if (b[i] == 'E') {
                for (int k = 1; k < 5; k++) {
                    if (b[i + k] != "ERROR".charAt(k)) {
                        continue outer;
                    }
                }
                return true;
            }
        }
        return false;
    }
}
