package org.rubis.client.workload;

/**
 * Where the pages and scripts of one RUBiS implementation live. The three layouts of the original
 * (PHP, Servlets, EJB) share all parameters; only the paths differ.
 */
public interface UrlLayout {

    /** Path of a static page, e.g. {@code /PHP/index.html}. */
    String page(String file);

    /** Path of a script by its RUBiS name, e.g. {@code ViewItem} gives {@code /PHP/ViewItem.php}. */
    String script(String name);

    /** The layout selected by {@code httpd_use_version}. */
    static UrlLayout of(Version version, String htmlPath, String scriptPath) {
        String h = trimSlash(htmlPath);
        String s = trimSlash(scriptPath);
        return switch (version) {
            case PHP -> new Prefixed(h, s + "/", ".php");
            case SERVLETS -> new Prefixed(h, s + "/edu.rice.rubis.servlets.", "");
            case EJB -> new Prefixed(h, s + "/edu.rice.rubis.beans.servlets.", "");
        };
    }

    /** The values of {@code httpd_use_version}. */
    enum Version {
        PHP,
        SERVLETS,
        EJB
    }

    private static String trimSlash(String p) {
        String t = p.strip();
        while (t.endsWith("/")) {
            t = t.substring(0, t.length() - 1);
        }
        return t.startsWith("/") || t.isEmpty() ? t : "/" + t;
    }

    /** html path + file; script prefix + name + suffix. */
    record Prefixed(String htmlPath, String scriptPrefix, String scriptSuffix) implements UrlLayout {
        @Override
        public String page(String file) {
            return htmlPath + "/" + file;
        }

        @Override
        public String script(String name) {
            return scriptPrefix + name + scriptSuffix;
        }
    }
}
