package org.rubis.server.http;

/** A server model: how connections are accepted and served (event loops or a worker pool). */
public interface RubisHttpServer extends AutoCloseable {

    /** Binds and starts serving; returns the bound port. */
    int start() throws Exception;

    /** Stops accepting, closes open connections and waits for the workers. */
    @Override
    void close();
}
