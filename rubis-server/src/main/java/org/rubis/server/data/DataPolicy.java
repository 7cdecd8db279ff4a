package org.rubis.server.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the database is populated with: the {@code database_*} policy of rubis.properties, the
 * regions and categories files, and the size factor that scales the number of items. Users are
 * never scaled: the client draws user ids from {@code database_number_of_users} and must find them.
 */
public record DataPolicy(
        int users,
        int oldItems,
        int percentUniqueItems,
        int percentReservePrice,
        int percentBuyNow,
        int maxQuantity,
        int descriptionLength,
        int maxBidsPerItem,
        int maxCommentsPerUser,
        int commentMaxLength,
        List<String> regions,
        List<String> categoryNames,
        List<Integer> categoryItems,
        double size,
        long seed) {

    private static final Pattern CATEGORY = Pattern.compile("^(.*\\S)\\s*\\((\\d+)\\)\\s*$");

    /** Items to generate in category {@code index} (0-based) at this size; at least one. */
    public int itemsIn(int index) {
        return Math.max(1, (int) Math.round(categoryItems.get(index) * size));
    }

    public int scaledOldItems() {
        return (int) Math.round(oldItems * size);
    }

    /** Reads the policy from a properties file (null: the packaged defaults). */
    public static DataPolicy load(Path propertiesFile, double size, long seed) {
        Properties p = new Properties();
        String where;
        try (InputStream in =
                propertiesFile == null ? resource("rubis.properties") : Files.newInputStream(propertiesFile)) {
            p.load(in);
            where = propertiesFile == null ? "classpath:rubis/rubis.properties" : propertiesFile.toString();
        } catch (IOException e) {
            throw new IllegalArgumentException(propertiesFile + ": cannot read: " + e.getMessage());
        }
        List<String> regions = lines(
                propertiesFile,
                p.getProperty("database_regions_file", "ebay_regions.txt").strip());
        List<String> names = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        for (String line : lines(
                propertiesFile,
                p.getProperty("database_categories_file", "ebay_simple_categories.txt")
                        .strip())) {
            Matcher m = CATEGORY.matcher(line);
            if (!m.matches()) {
                throw new IllegalArgumentException(
                        where + ": categories file line \"" + line + "\" is not Name (count)");
            }
            names.add(m.group(1));
            counts.add(Integer.parseInt(m.group(2)));
        }
        return new DataPolicy(
                integer(p, where, "database_number_of_users", 5000),
                integer(p, where, "database_number_of_old_items", 0),
                integer(p, where, "database_percentage_of_unique_items", 80),
                integer(p, where, "database_percentage_of_items_with_reserve_price", 40),
                integer(p, where, "database_percentage_of_buy_now_items", 10),
                integer(p, where, "database_max_quantity_for_multiple_items", 10),
                integer(p, where, "database_item_description_length", 1024),
                integer(p, where, "database_max_bids_per_item", 20),
                integer(p, where, "database_max_comments_per_user", 5),
                integer(p, where, "database_comment_max_length", 512),
                regions,
                names,
                counts,
                size,
                seed);
    }

    private static int integer(Properties p, String where, String key, int def) {
        String v = p.getProperty(key);
        if (v == null || v.isBlank()) {
            return def;
        }
        try {
            int i = Integer.parseInt(v.strip());
            if (i < 0) {
                throw new NumberFormatException();
            }
            return i;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    where + ": " + key + " = \"" + v.strip() + "\" is not a whole number >= 0");
        }
    }

    private static List<String> lines(Path propertiesFile, String name) {
        Path p = Path.of(name);
        try (BufferedReader r = p.isAbsolute() || propertiesFile != null
                ? Files.newBufferedReader(
                        p.isAbsolute()
                                ? p
                                : propertiesFile.toAbsolutePath().getParent().resolve(p),
                        StandardCharsets.ISO_8859_1)
                : new BufferedReader(
                        new InputStreamReader(resource(p.getFileName().toString()), StandardCharsets.ISO_8859_1))) {
            return r.lines().map(String::strip).filter(s -> !s.isEmpty()).toList();
        } catch (IOException | UncheckedIOException e) {
            throw new IllegalArgumentException(name + ": cannot read: " + e.getMessage());
        }
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = DataPolicy.class.getClassLoader().getResourceAsStream("rubis/" + name);
        if (in == null) {
            throw new IOException("rubis/" + name + " is not packaged");
        }
        return in;
    }
}
