package org.rubis.analysis.io;

/**
 * The local address:port of the connection that carried a line of requests.csv: what the server's log and the packet
 * capture know a connection by, so the joins with them pair lines by it (and by time: the kernel gives a closed
 * connection's port to a later one). {@code connection_id} names the connection itself, a serial; in runs written
 * before it was, it was the address:port, and stands for it.
 */
public final class Endpoint {

    /** requests.csv's column with the address:port. */
    public static final String COLUMN = "local_address";

    private Endpoint() {}

    /** The line's address:port ("" when the request had no connection). */
    public static String of(CsvStream.Row row) {
        return row.has(COLUMN) ? row.get(COLUMN) : row.get("connection_id");
    }
}
