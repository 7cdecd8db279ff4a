package org.rubis.server.data;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The embedded H2 database with the RUBiS schema. In memory by default, file-backed on request.
 * Each server thread keeps its own connection and prepared statements, so a request never waits
 * for a connection pool.
 */
public final class Database implements AutoCloseable {

    private final String url;
    private final Connection keeper; // keeps an in-memory database alive
    private final ThreadLocal<Session> sessions;
    private final List<Session> all = new CopyOnWriteArrayList<>();

    /**
     * One thread's connection and statement cache. A statement is prepared once per thread and its parameters bound
     * in order from Java values ({@code Integer}, {@code Long}, {@code Double}, {@code String}, {@code Timestamp},
     * null), so that an interaction states its SQL and arguments in one call.
     */
    public static final class Session {
        private final Connection connection;
        private final Map<String, PreparedStatement> statements = new HashMap<>();

        Session(Connection c) {
            this.connection = c;
        }

        /** Runs a query; the caller closes the result set (try-with-resources). */
        public ResultSet query(String sql, Object... params) throws SQLException {
            return bound(sql, params).executeQuery();
        }

        /** Runs an INSERT, UPDATE or DELETE; returns the number of rows it changed. */
        public int update(String sql, Object... params) throws SQLException {
            return bound(sql, params).executeUpdate();
        }

        /** Runs an INSERT; returns the key it generated (-1 when none). */
        public int insert(String sql, Object... params) throws SQLException {
            PreparedStatement ps = bound(sql, params);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                return keys.next() ? keys.getInt(1) : -1;
            }
        }

        private PreparedStatement bound(String sql, Object... params) throws SQLException {
            PreparedStatement ps = statements.get(sql);
            if (ps == null) {
                ps = connection.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS);
                statements.put(sql, ps);
            }
            for (int i = 0; i < params.length; i++) {
                int at = i + 1;
                switch (params[i]) {
                    case Integer v -> ps.setInt(at, v);
                    case Long v -> ps.setLong(at, v);
                    case Double v -> ps.setDouble(at, v);
                    case String v -> ps.setString(at, v);
                    case Timestamp v -> ps.setTimestamp(at, v);
                    case null -> ps.setNull(at, Types.NULL);
                    default ->
                        throw new IllegalArgumentException(
                                "no SQL binding for " + params[i].getClass().getName() + ": " + sql);
                }
            }
            return ps;
        }
    }

    public Database(String file) throws SQLException {
        this.url = file == null
                ? "jdbc:h2:mem:rubis" + System.nanoTime() + ";DB_CLOSE_DELAY=-1"
                : "jdbc:h2:file:" + file + ";DB_CLOSE_ON_EXIT=FALSE";
        this.keeper = DriverManager.getConnection(url, "sa", "");
        this.sessions = ThreadLocal.withInitial(() -> {
            try {
                Session s = new Session(DriverManager.getConnection(url, "sa", ""));
                all.add(s);
                return s;
            } catch (SQLException e) {
                throw new IllegalStateException("cannot open a database connection: " + e.getMessage(), e);
            }
        });
        createSchema();
    }

    public Session session() {
        return sessions.get();
    }

    public Connection keeper() {
        return keeper;
    }

    private void createSchema() throws SQLException {
        try (Statement s = keeper.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS categories (id INT PRIMARY KEY, name VARCHAR(50))");
            s.execute("CREATE TABLE IF NOT EXISTS regions (id INT PRIMARY KEY, name VARCHAR(25))");
            s.execute(
                    "CREATE TABLE IF NOT EXISTS users (id INT AUTO_INCREMENT PRIMARY KEY, firstname VARCHAR(20), lastname VARCHAR(20),"
                            + " nickname VARCHAR(20) NOT NULL UNIQUE, password VARCHAR(20) NOT NULL, email VARCHAR(50), rating INT DEFAULT 0,"
                            + " balance FLOAT DEFAULT 0, creation_date TIMESTAMP, region INT NOT NULL)");
            s.execute("CREATE INDEX IF NOT EXISTS users_region ON users(region)");
            for (String t : new String[] {"items", "old_items"}) {
                s.execute("CREATE TABLE IF NOT EXISTS " + t
                        + " (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100), description VARCHAR(8192),"
                        + " initial_price FLOAT NOT NULL, quantity INT NOT NULL, reserve_price FLOAT DEFAULT 0, buy_now FLOAT DEFAULT 0,"
                        + " nb_of_bids INT DEFAULT 0, max_bid FLOAT DEFAULT 0, start_date TIMESTAMP, end_date TIMESTAMP, seller INT NOT NULL,"
                        + " category INT NOT NULL)");
                s.execute("CREATE INDEX IF NOT EXISTS " + t + "_seller ON " + t + "(seller)");
                s.execute("CREATE INDEX IF NOT EXISTS " + t + "_category ON " + t + "(category)");
            }
            s.execute(
                    "CREATE TABLE IF NOT EXISTS bids (id INT AUTO_INCREMENT PRIMARY KEY, user_id INT NOT NULL, item_id INT NOT NULL,"
                            + " qty INT NOT NULL, bid FLOAT NOT NULL, max_bid FLOAT NOT NULL, date TIMESTAMP)");
            s.execute("CREATE INDEX IF NOT EXISTS bids_item ON bids(item_id)");
            s.execute("CREATE INDEX IF NOT EXISTS bids_user ON bids(user_id)");
            s.execute(
                    "CREATE TABLE IF NOT EXISTS comments (id INT AUTO_INCREMENT PRIMARY KEY, from_user_id INT NOT NULL, to_user_id INT NOT NULL,"
                            + " item_id INT NOT NULL, rating INT, date TIMESTAMP, comment VARCHAR(2048))");
            s.execute("CREATE INDEX IF NOT EXISTS comments_to ON comments(to_user_id)");
            s.execute(
                    "CREATE TABLE IF NOT EXISTS buy_now (id INT AUTO_INCREMENT PRIMARY KEY, buyer_id INT NOT NULL, item_id INT NOT NULL,"
                            + " qty INT NOT NULL, date TIMESTAMP)");
            s.execute("CREATE INDEX IF NOT EXISTS buy_now_buyer ON buy_now(buyer_id)");
        }
    }

    public boolean isEmpty() throws SQLException {
        try (Statement s = keeper.createStatement();
                var rs = s.executeQuery("SELECT COUNT(*) FROM regions")) {
            rs.next();
            return rs.getInt(1) == 0;
        }
    }

    @Override
    public void close() {
        for (Session s : all) {
            try {
                s.connection.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
        }
        try {
            keeper.close();
        } catch (SQLException ignored) {
            // closing anyway
        }
    }
}
