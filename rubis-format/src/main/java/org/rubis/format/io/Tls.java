package org.rubis.format.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;

/**
 * HTTPS for both server models (Nou, Guitart and Torres: a full handshake costs the server far more
 * than a resumed one). With resumption on, all connections share one SSL context, so a client that
 * returns resumes its session; with resumption off, each connection gets a fresh context, so every
 * handshake is a full one. The packaged key is a self-signed loopback certificate for tests.
 */
public final class Tls {

    public static final String PACKAGED_KEYSTORE = "rubis-tls.p12";
    public static final String PACKAGED_PASSWORD = "rubis-loopback";

    private final KeyManagerFactory keys;
    private final boolean resumption;
    private final SSLContext shared;

    private Tls(KeyManagerFactory keys, boolean resumption) throws GeneralSecurityException {
        this.keys = keys;
        this.resumption = resumption;
        this.shared = newContext();
    }

    /** The packaged key (keystore null) or a PKCS12 keystore of the user's. */
    public static Tls load(Path keystore, String password, boolean resumption) {
        try (InputStream in = keystore == null
                ? Tls.class.getClassLoader().getResourceAsStream(PACKAGED_KEYSTORE)
                : Files.newInputStream(keystore)) {
            if (in == null) {
                throw new IllegalArgumentException(PACKAGED_KEYSTORE + " is not packaged");
            }
            char[] pw = (password == null ? PACKAGED_PASSWORD : password).toCharArray();
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, pw);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, pw);
            return new Tls(kmf, resumption);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("--tls-keystore " + (keystore == null ? "(packaged)" : keystore)
                    + ": cannot load: " + e.getMessage());
        }
    }

    private SSLContext newContext() throws GeneralSecurityException {
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(keys.getKeyManagers(), null, null);
        return c;
    }

    public boolean resumption() {
        return resumption;
    }

    /** The context for a new connection. */
    public SSLContext context() {
        if (resumption) {
            return shared;
        }
        try {
            return newContext();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public SSLEngine serverEngine() {
        SSLEngine e = context().createSSLEngine();
        e.setUseClientMode(false);
        return e;
    }

    /** "resumed" when the session predates the connection (it was resumed), else "full". */
    public static String handshakeKind(SSLSession session, long connectionOpenedMillis) {
        return session.getCreationTime() < connectionOpenedMillis - 1 ? "resumed" : "full";
    }
}
