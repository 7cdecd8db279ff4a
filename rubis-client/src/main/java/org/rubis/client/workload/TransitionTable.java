package org.rubis.client.workload;

import java.util.ArrayList;
import java.util.List;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.Source;

/**
 * A RUBiS transition table: the spreadsheet export the original client reads.
 *
 * <p>{@code probability(to, from)} is the value in data row {@code to}, column {@code from}: the
 * probability of going FROM state {@code from} TO state {@code to}. Rows 0..columns-1 are states,
 * row {@code columns} is "Back probability", row {@code columns+1} "End of Session". The shipped
 * tables' columns do not sum to 1; {@link #columnSumDeviations()} reports them, and the sampler
 * decides (compatible or normalize) what to do with the difference.
 */
public final class TransitionTable {

    /** Longest waiting time of a state: 30 days, the bound of every duration (config.Limits). */
    static final long MAX_WAIT_MS = 30L * 24 * 3600 * 1000;

    /** Tolerance of the column-sum check, as specified: report columns off by more than this. */
    public static final double SUM_TOLERANCE = 0.001;

    /** A column whose probabilities do not sum to 1. */
    public record ColumnSum(int column, String state, double sum) {}

    private final String source;
    private final String name;
    private final List<String> stateNames; // one per row (states, then Back, then End)
    private final double[][] prob; // [row = to][column = from]
    private final long[] waitingTimeMs; // per row: the "Transition waiting time" column

    private TransitionTable(
            String source, String name, List<String> stateNames, double[][] prob, long[] waitingTimeMs) {
        this.source = source;
        this.name = name;
        this.stateNames = List.copyOf(stateNames);
        this.prob = prob;
        this.waitingTimeMs = waitingTimeMs;
    }

    public String source() {
        return source;
    }

    public String name() {
        return name;
    }

    public int columns() {
        return prob[0].length;
    }

    public int rows() {
        return prob.length;
    }

    public int backRow() {
        return columns();
    }

    public int endRow() {
        return columns() + 1;
    }

    public List<String> stateNames() {
        return stateNames;
    }

    public double probability(int to, int from) {
        return prob[to][from];
    }

    public long waitingTimeMs(int state) {
        return waitingTimeMs[state];
    }

    public double columnSum(int from) {
        double s = 0;
        for (double[] row : prob) {
            s += row[from];
        }
        return s;
    }

    public List<ColumnSum> columnSumDeviations() {
        List<ColumnSum> out = new ArrayList<>();
        for (int c = 0; c < columns(); c++) {
            double s = columnSum(c);
            if (Math.abs(s - 1.0) > SUM_TOLERANCE) {
                out.add(new ColumnSum(c, stateNames.get(c), s));
            }
        }
        return out;
    }

    /**
     * Parses the tab-separated export. Layout: a title line ({@code RUBiS Transition Table<TAB>name}),
     * then anything up to and including a header line whose first cell starts with a quoted string
     * (the two-line {@code "To >>> / From vvvv"} cell), then {@code rows} data lines of
     * {@code name, columns probabilities, waiting time}. Lines after the last data row are ignored.
     */
    public static TransitionTable parse(Source src, int columns, int rows) {
        if (columns < 1) {
            throw new ConfigException(src.displayName() + ": workload_number_of_columns must be at least 1");
        }
        if (rows != columns + 2) {
            throw new ConfigException(
                    src.displayName() + ": the table must have rows = columns + 2 (states, Back, End of Session); got "
                            + "workload_number_of_rows = " + rows + " and workload_number_of_columns = " + columns
                            + " (standard tables: 29 and 27)");
        }
        List<String> lines = src.readLines();
        String where = src.displayName();
        if (lines.isEmpty()) {
            throw new ConfigException(
                    where
                            + ": empty file; expected a RUBiS transition table (first line \"RUBiS Transition Table<TAB>name\")");
        }
        String[] title = lines.get(0).split("\t", -1);
        if (!title[0].strip().equalsIgnoreCase("RUBiS Transition Table")) {
            throw new ConfigException(where + ":1: expected \"RUBiS Transition Table<TAB>name\" but found \""
                    + abbreviate(lines.get(0)) + "\"; is this a transition table exported as tab-separated text?");
        }
        String name = title.length > 1 ? title[1].strip() : "";
        int headerLine = headerIndex(lines, where) + 1;
        // The quoted cell ends on this line or the next one.
        int i = lines.get(headerLine - 1).indexOf('"', 1) < 0 ? headerLine + 1 : headerLine;
        double[][] prob = new double[rows][columns];
        long[] wait = new long[rows];
        List<String> names = new ArrayList<>();
        for (int r = 0; r < rows; r++, i++) {
            if (i >= lines.size() || lines.get(i).isBlank()) {
                throw new ConfigException(where + ":" + (i + 1) + ": found " + r + " data rows, expected " + rows
                        + " (workload_number_of_rows); the table ends too early");
            }
            String[] cells = lines.get(i).split("\t", -1);
            int used = lastNonEmpty(cells) + 1;
            if (used != columns + 2) {
                throw new ConfigException(where + ":" + (i + 1) + ": row \"" + cells[0].strip() + "\" has "
                        + Math.max(0, used - 2) + " probability columns, expected " + columns
                        + " (workload_number_of_columns) plus the waiting time");
            }
            names.add(cells[0].strip());
            for (int c = 0; c < columns; c++) {
                prob[r][c] = number(cells[c + 1], where, i + 1, c + 2, "a probability");
                if (!(prob[r][c] >= 0 && prob[r][c] <= 1)) { // NaN too
                    throw new ConfigException(where + ":" + (i + 1) + ": column " + (c + 2) + " = "
                            + cells[c + 1].strip() + " is not a probability; expected a number in [0, 1]");
                }
            }
            double w = number(cells[columns + 1], where, i + 1, columns + 2, "a waiting time in ms");
            if (!(w >= 0 && w <= MAX_WAIT_MS)) { // NaN and infinity too
                throw new ConfigException(where + ":" + (i + 1) + ": column " + (columns + 2) + ": waiting time "
                        + cells[columns + 1].strip() + " is not a number of milliseconds from 0 to 30 days");
            }
            wait[r] = Math.round(w);
        }
        checkEveryStateLeaves(where, headerLine, prob, names);
        return new TransitionTable(where, name, names, prob, wait);
    }

    /** The index of the header line: the first after the title whose first cell is a quoted string. */
    private static int headerIndex(List<String> lines, String where) {
        int i = 1;
        while (i < lines.size() && !lines.get(i).startsWith("\"")) {
            i++;
        }
        if (i == lines.size()) {
            throw new ConfigException(
                    where + ": no header line found (a line starting with the quoted \"To >>> From vvvv\" cell)");
        }
        return i;
    }

    /** Every state (column) has a way out: a non-zero probability in some row. */
    private static void checkEveryStateLeaves(String where, int headerLine, double[][] prob, List<String> names) {
        for (int c = 0; c < prob[0].length; c++) {
            double sum = 0;
            for (double[] row : prob) {
                sum += row[c];
            }
            if (sum == 0) {
                // No way out of the state: a session that reaches it stays there until the end of the run.
                throw new ConfigException(where + ":" + headerLine + ": column " + (c + 2) + " (from " + names.get(c)
                        + ") sums to 0: a session "
                        + "in " + names.get(c)
                        + " could never leave it; give it at least one non-zero probability (the End of Session row "
                        + "ends the session)");
            }
        }
    }

    private static int lastNonEmpty(String[] cells) {
        for (int k = cells.length - 1; k >= 0; k--) {
            if (!cells[k].isBlank()) {
                return k;
            }
        }
        return -1;
    }

    private static double number(String cell, String where, int line, int column, String what) {
        try {
            return Double.parseDouble(cell.strip());
        } catch (NumberFormatException e) {
            throw new ConfigException(where + ":" + line + ": column " + column + " = \"" + cell.strip()
                    + "\" is not a number; expected " + what);
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
