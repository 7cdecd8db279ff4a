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
            // No explicit ids: the tables are empty, so the generated ids are 1..n in the order written, and the
            // ids of rows the application adds later continue after them.
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO users (firstname, lastname, nickname, password, email, rating, balance,"
                            + " creation_date, region) VALUES (?, ?, ?, ?, ?, 0, 0, ?, ?)")) {
                Timestamp created = new Timestamp(nowMs - 30 * DAY_MS);
                for (int u = 1; u <= policy.users(); u++) {
                    ps.setString(1, "Great" + u);
                    ps.setString(2, "User" + u);
                    ps.setString(3, "user" + u);
                    ps.setString(4, "password" + u);
                    ps.setString(5, "Great" + u + ".User" + u + "@rubis.com");
                    ps.setTimestamp(6, created);
                    ps.setInt(7, 1 + r.nextInt(policy.regions().size()));
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
            insertItems(c, "old_items", drawItems(old, r, nowMs, true), null);
            // The bids are drawn after the items, as always, but before the items are written, so that each item is
            // written once with its bid count and maximum bid instead of written and then updated.
            ItemRows items = drawItems(active, r, nowMs, false);
            BidRows bids = drawBids(items, r, nowMs);
            insertItems(c, "items", items, bids);
            insertBids(c, bids);
            insertComments(c, active, r, nowMs);
            c.commit();
            return active;
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /** Items 1..n as drawn (index 0 = item 1), before they are written. */
    private record ItemRows(
            int[] category,
            float[] initialPrice,
            float[] reservePrice,
            float[] buyNow,
            int[] quantity,
            int[] descriptionLength,
            long[] start,
            long[] end,
            int[] seller) {

        ItemRows(int n) {
            this(
                    new int[n],
                    new float[n],
                    new float[n],
                    new float[n],
                    new int[n],
                    new int[n],
                    new long[n],
                    new long[n],
                    new int[n]);
        }

        int count() {
            return category.length;
        }
    }

    /** Bids in the order drawn; per item, the number of bids and the last (highest) price. */
    private record BidRows(
            int[] user, int[] item, float[] price, long[] date, int[] countPerItem, float[] maxPerItem, int size) {}

    private ItemRows drawItems(int count, SplittableRandom r, long nowMs, boolean ended) {
        ItemRows rows = new ItemRows(count);
        int category = 0;
        int leftInCategory = ended ? Integer.MAX_VALUE : policy.itemsIn(0);
        for (int i = 0; i < count; i++) {
            if (!ended && leftInCategory == 0) {
                category++;
                leftInCategory = policy.itemsIn(category);
            }
            leftInCategory--;
            rows.category[i] = ended ? r.nextInt(policy.categoryNames().size()) : category;
            float initial = 1 + r.nextInt(5000);
            rows.initialPrice[i] = initial;
            float reserve = r.nextInt(100) < policy.percentReservePrice() ? initial + r.nextInt(1000) : 0;
            rows.reservePrice[i] = reserve;
            rows.buyNow[i] = r.nextInt(100) < policy.percentBuyNow() ? initial + reserve + r.nextInt(1000) : 0;
            rows.quantity[i] =
                    r.nextInt(100) < policy.percentUniqueItems() ? 1 : 1 + r.nextInt(Math.max(1, policy.maxQuantity()));
            int duration = 1 + r.nextInt(7);
            long start = ended ? nowMs - (duration + 1 + r.nextInt(30)) * DAY_MS : nowMs - r.nextInt(duration) * DAY_MS;
            rows.start[i] = start;
            rows.end[i] = start + duration * DAY_MS + (ended ? 0 : DAY_MS);
            rows.descriptionLength[i] = 1 + r.nextInt(Math.max(1, policy.descriptionLength()));
            rows.seller[i] = 1 + r.nextInt(policy.users());
        }
        return rows;
    }

    /** Writes items 1..n; with their bids' count and maximum when given (otherwise none). */
    private void insertItems(Connection c, String table, ItemRows rows, BidRows bids) throws SQLException {
        String description =
                "This incredible item is exactly what you need ! ".repeat(1 + policy.descriptionLength() / 48);
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO " + table + " (name, description, initial_price, quantity, reserve_price,"
                        + " buy_now, nb_of_bids, max_bid, start_date, end_date, seller, category) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int i = 0; i < rows.count(); i++) {
                int id = i + 1;
                ps.setString(1, "RUBiS automatically generated item #" + id);
                ps.setString(2, description.substring(0, Math.min(description.length(), rows.descriptionLength[i])));
                ps.setFloat(3, rows.initialPrice[i]);
                ps.setInt(4, rows.quantity[i]);
                ps.setFloat(5, rows.reservePrice[i]);
                ps.setFloat(6, rows.buyNow[i]);
                ps.setInt(7, bids == null ? 0 : bids.countPerItem[i]);
                ps.setFloat(8, bids == null ? 0 : bids.maxPerItem[i]);
                ps.setTimestamp(9, new Timestamp(rows.start[i]));
                ps.setTimestamp(10, new Timestamp(rows.end[i]));
                ps.setInt(11, rows.seller[i]);
                ps.setInt(12, rows.category[i] + 1);
                ps.addBatch();
                if (id % 1000 == 0) {
                    ps.executeBatch();
                }
            }
            ps.executeBatch();
        }
    }

    private BidRows drawBids(ItemRows items, SplittableRandom r, long nowMs) {
        int n = items.count();
        int capacity = n * policy.maxBidsPerItem();
        int[] user = new int[capacity];
        int[] item = new int[capacity];
        float[] price = new float[capacity];
        long[] date = new long[capacity];
        int[] countPerItem = new int[n];
        float[] maxPerItem = new float[n];
        int size = 0;
        for (int i = 0; i < n; i++) {
            int bids = policy.maxBidsPerItem() == 0 ? 0 : r.nextInt(policy.maxBidsPerItem() + 1);
            float p = items.initialPrice[i];
            for (int b = 0; b < bids; b++) {
                p += 1 + r.nextInt(10);
                user[size] = 1 + r.nextInt(policy.users());
                item[size] = i + 1;
                price[size] = p;
                date[size] = nowMs - r.nextInt(86_400) * 1000L;
                size++;
            }
            countPerItem[i] = bids;
            maxPerItem[i] = bids > 0 ? p : 0;
        }
        return new BidRows(user, item, price, date, countPerItem, maxPerItem, size);
    }

    private void insertBids(Connection c, BidRows bids) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO bids (user_id, item_id, qty, bid, max_bid, date) VALUES (?, ?, 1, ?, ?, ?)")) {
            for (int k = 0; k < bids.size(); k++) {
                ps.setInt(1, bids.user[k]);
                ps.setInt(2, bids.item[k]);
                ps.setFloat(3, bids.price[k]);
                ps.setFloat(4, bids.price[k] + 5);
                ps.setTimestamp(5, new Timestamp(bids.date[k]));
                ps.addBatch();
                if ((k + 1) % 1000 == 0) {
                    ps.executeBatch();
                }
            }
            ps.executeBatch();
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
