package org.rubis.client.backend;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;

/**
 * The client side of HTTPS, shared by all backends. Resumption on: one SSL context for the whole
 * client, so every new connection offers a session back to the server (as any Java client does);
 * off: a fresh context per connection, so every handshake is full. Certificates are not checked:
 * this is a load generator for servers on loopback, such as the embedded one with its self-signed key.
 */
public final class ClientTls {

    private final boolean resumption;
    private final SSLContext shared;
    private final SSLSocketFactory factory = new PerConnectionFactory();

    public ClientTls(boolean resumption) {
        this.resumption = resumption;
        this.shared = trustAll();
    }

    public static boolean isHttps(String base) {
        return base.startsWith("https:");
    }

    static SSLContext trustAll() {
        try {
            SSLContext c = SSLContext.getInstance("TLS");
            c.init(
                    null,
                    new TrustManager[] {
                        new X509TrustManager() {
                            @Override
                            public void checkClientTrusted(X509Certificate[] chain, String type) {}

                            @Override
                            public void checkServerTrusted(X509Certificate[] chain, String type) {}

                            @Override
                            public X509Certificate[] getAcceptedIssuers() {
                                return new X509Certificate[0];
                            }
                        }
                    },
                    null);
            return c;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The context of a new connection. */
    public SSLContext context() {
        return resumption ? shared : trustAll();
    }

    /** One factory object (the JDK's keep-alive cache keys on it) whose sockets follow the policy. */
    public SSLSocketFactory socketFactory() {
        return factory;
    }

    public SSLEngine clientEngine(String host, int port) {
        SSLEngine e = context().createSSLEngine(host, port);
        e.setUseClientMode(true);
        return e;
    }

    /** HttpClient 5's hook: layer TLS over a connected socket, with the same policy. */
    public TlsSocketStrategy httpClientStrategy() {
        return (socket, target, port, attachment, context) -> {
            SSLSocket s = (SSLSocket) factory.createSocket(socket, target, port, true);
            s.startHandshake();
            return s;
        };
    }

    private final class PerConnectionFactory extends SSLSocketFactory {
        private SSLSocketFactory next() {
            return context().getSocketFactory();
        }

        @Override
        public String[] getDefaultCipherSuites() {
            return shared.getSocketFactory().getDefaultCipherSuites();
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return shared.getSocketFactory().getSupportedCipherSuites();
        }

        @Override
        public Socket createSocket(Socket s, String host, int port, boolean autoClose) throws IOException {
            return next().createSocket(s, host, port, autoClose);
        }

        @Override
        public Socket createSocket() throws IOException {
            return next().createSocket();
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            return next().createSocket(host, port);
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress local, int localPort) throws IOException {
            return next().createSocket(host, port, local, localPort);
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException {
            return next().createSocket(host, port);
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress local, int localPort) throws IOException {
            return next().createSocket(address, port, local, localPort);
        }
    }
}
