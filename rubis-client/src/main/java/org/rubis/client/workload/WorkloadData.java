package org.rubis.client.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.Source;

/**
 * The regions and categories of the auction site, from the two ebay files. The client draws
 * region names and category ids from these lists; the server populates its database from them.
 */
public record WorkloadData(List<String> regions, List<Category> categories) {

    /** A category and the number of items the data generator creates in it. */
    public record Category(String name, int items) {}

    private static final Pattern CATEGORY = Pattern.compile("^(.*\\S)\\s*\\((\\d+)\\)\\s*$");

    public WorkloadData {
        regions = List.copyOf(regions);
        categories = List.copyOf(categories);
    }

    public static WorkloadData load(Source regionsFile, Source categoriesFile) {
        List<String> regions = new ArrayList<>();
        for (String line : regionsFile.readLines()) {
            if (!line.isBlank()) {
                regions.add(line.strip());
            }
        }
        if (regions.isEmpty()) {
            throw new ConfigException(regionsFile.displayName() + ": no regions; expected one region name per line");
        }
        List<Category> categories = new ArrayList<>();
        List<String> lines = categoriesFile.readLines();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            Matcher m = CATEGORY.matcher(line);
            if (!m.matches()) {
                throw new ConfigException(categoriesFile.displayName() + ":" + (i + 1) + ": \"" + line.strip()
                        + "\" is not a category line; expected Name (number of items), e.g. Books (2691)");
            }
            categories.add(new Category(m.group(1), Integer.parseInt(m.group(2))));
        }
        if (categories.isEmpty()) {
            throw new ConfigException(
                    categoriesFile.displayName() + ": no categories; expected lines like Books (2691)");
        }
        return new WorkloadData(regions, categories);
    }
}
