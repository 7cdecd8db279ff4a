package org.rubis.client.config;

import java.net.URI;
import java.net.URISyntaxException;
import org.rubis.client.input.ConfigException;

/**
 * {@code client_target}: embedded, or a checked http(s) base URL without trailing slashes; unset, a file of the
 * original's targets httpd_hostname:httpd_port, and any other file the embedded server.
 */
final class TargetUrl {

    private TargetUrl() {}

    static String read(Settings s) {
        String target = s.string(Keys.TARGET.key(), null);
        if (target == null) {
            boolean oldFile = s.entry(Keys.HTTPD_HOSTNAME.key()).isPresent();
            return oldFile ? "http://" + s.get(Keys.HTTPD_HOSTNAME) + ":" + s.get(Keys.HTTPD_PORT) : "embedded";
        }
        return target.equals("embedded") ? target : checkUrl(s, target);
    }

    private static String checkUrl(Settings s, String target) {
        try {
            URI u = new URI(target);
            if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getHost() == null) {
                throw new URISyntaxException(target, "not an http(s) URL with a host");
            }
            if (u.getPort() == 0 || u.getPort() > 65535) {
                throw new ConfigException(s.given(s.entry(Keys.TARGET.key()).orElseThrow(), target) + ": port "
                        + u.getPort() + " is out of range; expected a TCP port from 1 to 65535");
            }
            String t = target;
            while (t.endsWith("/")) {
                t = t.substring(0, t.length() - 1);
            }
            return t;
        } catch (URISyntaxException e) {
            PropertiesFile.Entry en = s.entry(Keys.TARGET.key()).orElseThrow();
            throw new ConfigException(
                    s.given(en, target) + ": not a target; expected embedded or a URL such as http://127.0.0.1:8080");
        }
    }
}
