package org.rubis.server.data;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.SplittableRandom;

/**
 * Fills an empty database from a {@link DataPolicy}, deterministically: the same policy and seed
 * give the same rows (ids, prices, bids, comments). Dates are relative to the start instant.
 */
public final class Populator {

    private static final long DAY_MS = 86_400_000L;
    private final DataPolicy policy;

    public Populator(DataPolicy policy) {
        this.policy = policy;
    }

    /** Populates and returns the number of active items. */
    public int populate(Connection c, long nowMs) throws SQLException {
        SplittableRandom r = new SplittableRandom(policy.seed());
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO regions (id, name) VALUES (?, ?)")) {
                for (int i = 0; i < policy.regions().size(); i++) {
                    ps.setInt(1, i + 1);
                    ps.setString(2, policy.regions().get(i));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO categories (id, name) VALUES (?, ?)")) {
                for (int i = 0; i < policy.categoryNames().size(); i++) {
                    ps.setInt(1, i + 1);
                    ps.setString(2, policy.categoryNames().get(i));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO users (id, firstname, lastname, nickname, password, email, rating, balance,"
                            + " creation_date, region) VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, ?)")) {
                Timestamp created = new Timestamp(nowMs - 30 * DAY_MS);
                for (int u = 1; u <= policy.users(); u++) {
                    ps.setInt(1, u);
                    ps.setString(2, "Great" + u);
                    ps.setString(3, "User" + u);
                    ps.setString(4, "user" + u);
                    ps.setString(5, "password" + u);
                    ps.setString(6, "Great" + u + ".User" + u + "@rubis.com");
                    ps.setTimestamp(7, created);
                    ps.setInt(8, 1 + r.nextInt(policy.regions().size()));
                    ps.addBatch();
                    if (u % 1000 == 0) {
                        ps.executeBatch();
                    }
                }
                ps.executeBatch();
            }
            int active = 0;
            for (int cat = 0; cat < policy.categoryNames().size(); cat++) {
                active += policy.itemsIn(cat);
            }
            int old = policy.scaledOldItems();
            insertItems(c, "old_items", old, r, nowMs, true);
            float[] initialPrices = insertItems(c, "items", active, r, nowMs, false);
            insertBids(c, initialPrices, r, nowMs);
            insertComments(c, active, r, nowMs);
            try (var st = c.createStatement()) {
                // Ids were given explicitly: let generated ids continue after them.
                st.execute("ALTER TABLE users ALTER COLUMN id RESTART WITH " + (policy.users() + 1));
                st.execute("ALTER TABLE items ALTER COLUMN id RESTART WITH " + (active + 1));
                st.execute("ALTER TABLE old_items ALTER COLUMN id RESTART WITH " + (old + 1));
            }
            c.commit();
            return active;
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /** Inserts items 1..count and returns their initial prices (index 0 = item 1). */
    private float[] insertItems(Connection c, String table, int count, SplittableRandom r, long nowMs, boolean ended)
            throws SQLException {
        float[] prices = new float[count];
        String description =
                "This incredible item is exactly what you need ! ".repeat(1 + policy.descriptionLength() / 48);
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO " + table + " (id, name, description, initial_price, quantity, reserve_price,"
                        + " buy_now, nb_of_bids, max_bid, start_date, end_date, seller, category) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?)")) {
            int category = 0;
            int leftInCategory = ended ? Integer.MAX_VALUE : policy.itemsIn(0);
            for (int i = 1; i <= count; i++) {
                if (!ended && leftInCategory == 0) {
                    category++;
                    leftInCategory = policy.itemsIn(category);
                }
                leftInCategory--;
                int cat = ended ? r.nextInt(policy.categoryNames().size()) : category;
                float initial = 1 + r.nextInt(5000);
                prices[i - 1] = initial;
                float reserve = r.nextInt(100) < policy.percentReservePrice() ? initial + r.nextInt(1000) : 0;
                float buyNow = r.nextInt(100) < policy.percentBuyNow() ? initial + reserve + r.nextInt(1000) : 0;
                int qty = r.nextInt(100) < policy.percentUniqueItems()
                        ? 1
                        : 1 + r.nextInt(Math.max(1, policy.maxQuantity()));
                int duration = 1 + r.nextInt(7);
                long start =
                        ended ? nowMs - (duration + 1 + r.nextInt(30)) * DAY_MS : nowMs - r.nextInt(duration) * DAY_MS;
                ps.setInt(1, i);
                ps.setString(2, "RUBiS automatically generated item #" + i);
                ps.setString(
                        3,
                        description.substring(
                                0,
                                Math.min(
                                        description.length(), 1 + r.nextInt(Math.max(1, policy.descriptionLength())))));
                ps.setFloat(4, initial);
                ps.setInt(5, qty);
                ps.setFloat(6, reserve);
                ps.setFloat(7, buyNow);
                ps.setTimestamp(8, new Timestamp(start));
                ps.setTimestamp(9, new Timestamp(start + duration * DAY_MS + (ended ? 0 : DAY_MS)));
                ps.setInt(10, 1 + r.nextInt(policy.users()));
                ps.setInt(11, cat + 1);
                ps.addBatch();
                if (i % 1000 == 0) {
                    ps.executeBatch();
                }
            }
            ps.executeBatch();
        }
        return prices;
    }

    private void insertBids(Connection c, float[] initialPrices, SplittableRandom r, long nowMs) throws SQLException {
        int items = initialPrices.length;
        try (PreparedStatement bid = c.prepareStatement(
                        "INSERT INTO bids (user_id, item_id, qty, bid, max_bid, date) VALUES (?, ?, ?, ?, ?, ?)");
                PreparedStatement upd =
                        c.prepareStatement("UPDATE items SET nb_of_bids = ?, max_bid = ? WHERE id = ?")) {
            int n = 0;
            for (int item = 1; item <= items; item++) {
                int bids = policy.maxBidsPerItem() == 0 ? 0 : r.nextInt(policy.maxBidsPerItem() + 1);
                float price = initialPrices[item - 1];
                for (int b = 0; b < bids; b++) {
                    price += 1 + r.nextInt(10);
                    bid.setInt(1, 1 + r.nextInt(policy.users()));
                    bid.setInt(2, item);
                    bid.setInt(3, 1);
                    bid.setFloat(4, price);
                    bid.setFloat(5, price + 5);
                    bid.setTimestamp(6, new Timestamp(nowMs - r.nextInt(86_400) * 1000L));
                    bid.addBatch();
                    if (++n % 1000 == 0) {
                        bid.executeBatch();
                    }
                }
                if (bids > 0) {
                    upd.setInt(1, bids);
                    upd.setFloat(2, price);
                    upd.setInt(3, item);
                    upd.addBatch();
                }
            }
            bid.executeBatch();
            upd.executeBatch();
        }
    }

    private void insertComments(Connection c, int items, SplittableRandom r, long nowMs) throws SQLException {
        String text =
                "This is a very bad comment. Stay away from this seller !! ".repeat(1 + policy.commentMaxLength() / 57);
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO comments (from_user_id, to_user_id, item_id, rating, date, comment) VALUES (?, ?, ?, ?, ?, ?)")) {
            int n = 0;
            for (int u = 1; u <= policy.users(); u++) {
                int comments = policy.maxCommentsPerUser() == 0 ? 0 : r.nextInt(policy.maxCommentsPerUser() + 1);
                for (int k = 0; k < comments; k++) {
                    ps.setInt(1, 1 + r.nextInt(policy.users()));
                    ps.setInt(2, u);
                    ps.setInt(3, 1 + r.nextInt(items));
                    ps.setInt(4, r.nextInt(11) - 5);
                    ps.setTimestamp(5, new Timestamp(nowMs - r.nextInt(86_400) * 1000L));
                    ps.setString(
                            6,
                            text.substring(
                                    0, Math.min(text.length(), 1 + r.nextInt(Math.max(1, policy.commentMaxLength())))));
                    ps.addBatch();
                    if (++n % 1000 == 0) {
                        ps.executeBatch();
                    }
                }
            }
            ps.executeBatch();
        }
    }
}
