package org.rubis.lab.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.rubis.client.input.ConfigException;

/**
 * While a benchmark's client runs with its live view on ({@code --metrics-port}), reads it as a Prometheus with a 1 s
 * scrape interval and one open live page would: {@code /metrics} and {@code /live.json} once a second. The endpoint's
 * cost (serving, and the metrics fed by the log writer) is then part of what the run measures.
 */
final class LiveScrapes implements AutoCloseable {

    private final Thread thread;
    private final AtomicLong answered = new AtomicLong();
    private volatile boolean running = true;

    private LiveScrapes(int port) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        String base = "http://127.0.0.1:" + port;
        thread = new Thread(
                () -> {
                    long next = 0;
                    while (running) {
                        for (String path : new String[] {"/metrics", "/live.json?from=" + next}) {
                            try {
                                HttpResponse<String> r = http.send(
                                        HttpRequest.newBuilder(URI.create(base + path))
                                                .timeout(Duration.ofSeconds(2))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString());
                                if (r.statusCode() == 200) {
                                    answered.incrementAndGet();
                                }
                            } catch (IOException e) {
                                // not up yet (the client is starting), or gone
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                        try {
                            Thread.sleep(1000);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                },
                "live-scrapes");
        thread.setDaemon(true);
        thread.start();
    }

    /** Scrapes port {@code port} until closed; nothing (null) when {@code port} is null. */
    static LiveScrapes of(Integer port) {
        return port == null ? null : new LiveScrapes(port);
    }

    /** {@code --metrics-port}'s value checked: a TCP port. */
    static void check(Integer port) {
        if (port != null && (port < 1 || port > 65535)) {
            throw new ConfigException("--metrics-port " + port + ": out of range; expected a TCP port from 1 to 65535");
        }
    }

    /** Requests the endpoint answered. */
    long answered() {
        return answered.get();
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
