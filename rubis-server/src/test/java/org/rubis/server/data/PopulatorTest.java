package org.rubis.server.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generated database: the same rows for the same seed, consistent across tables, ids that continue. */
class PopulatorTest {

    private static final long NOW_MS = 1_790_000_000_000L;
    private static final String[] TABLES = {"regions", "categories", "users", "items", "old_items", "bids", "comments"};

    @Test
    void theSameSeedGivesTheSameRowsAndAnotherSeedOthers() throws SQLException {
        DataPolicy policy = DataPolicy.load(null, 0.02, 3);
        List<String> first = rowsOf(policy);
        assertEquals(first, rowsOf(policy));
        assertNotEquals(first, rowsOf(DataPolicy.load(null, 0.02, 4)));
    }

    @Test
    void eachItemCarriesTheCountAndTheHighestOfItsBids() throws SQLException {
        DataPolicy policy = DataPolicy.load(null, 0.02, 1);
        try (Database db = new Database(null)) {
            int active = new Populator(policy).populate(db.keeper(), NOW_MS);
            try (Statement s = db.keeper().createStatement()) {
                assertEquals(active, count(s, "SELECT COUNT(*) FROM items"));
                assertEquals(policy.users(), count(s, "SELECT COUNT(*) FROM users"));
                assertTrue(
                        count(s, "SELECT COUNT(*) FROM items WHERE nb_of_bids > 0") > active / 2,
                        "most items have bids");
                assertEquals(
                        0,
                        count(
                                s,
                                "SELECT COUNT(*) FROM items i LEFT JOIN (SELECT item_id, COUNT(*) n, MAX(bid) m FROM bids"
                                        + " GROUP BY item_id) b ON b.item_id = i.id WHERE i.nb_of_bids <> COALESCE(b.n, 0)"
                                        + " OR i.max_bid <> COALESCE(b.m, 0)"),
                        "items whose nb_of_bids or max_bid differ from their bids");
                assertEquals(0, count(s, "SELECT COUNT(*) FROM bids WHERE item_id NOT IN (SELECT id FROM items)"));
                assertEquals(
                        0,
                        count(s, "SELECT COUNT(*) FROM items WHERE seller NOT IN (SELECT id FROM users)"),
                        "sellers");
            }
        }
    }

    @Test
    void rowsAddedLaterGetTheIdsAfterTheGeneratedOnes() throws SQLException {
        DataPolicy policy = DataPolicy.load(null, 0.02, 1);
        try (Database db = new Database(null)) {
            int active = new Populator(policy).populate(db.keeper(), NOW_MS);
            Database.Session session = db.session();
            assertEquals(
                    policy.users() + 1,
                    session.insert("INSERT INTO users (firstname, lastname, nickname, password, email, region)"
                            + " VALUES ('a', 'b', 'newcomer', 'p', 'e', 1)"));
            assertEquals(
                    active + 1,
                    session.insert("INSERT INTO items (name, initial_price, quantity, seller, category)"
                            + " VALUES ('n', 1, 1, 1, 1)"));
            assertEquals(
                    policy.scaledOldItems() + 1,
                    session.insert("INSERT INTO old_items (name, initial_price, quantity, seller, category)"
                            + " VALUES ('n', 1, 1, 1, 1)"));
        }
    }

    private static List<String> rowsOf(DataPolicy policy) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Database db = new Database(null)) {
            new Populator(policy).populate(db.keeper(), NOW_MS);
            Connection c = db.keeper();
            try (Statement s = c.createStatement()) {
                for (String table : TABLES) {
                    try (ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY id")) {
                        int columns = rs.getMetaData().getColumnCount();
                        while (rs.next()) {
                            StringBuilder row = new StringBuilder(table);
                            for (int i = 1; i <= columns; i++) {
                                row.append('|').append(rs.getString(i));
                            }
                            rows.add(row.toString());
                        }
                    }
                }
            }
        }
        return rows;
    }

    private static int count(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
