package org.rubis.client.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.TestFiles;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.Source;

class TransitionTableTest {

    @TempDir
    Path tmp;

    @Test
    void bothShippedTablesParseWithTheirStates() {
        for (String name : List.of("default_transitions.txt", "browse_only_transitions.txt")) {
            TransitionTable t = TransitionTable.parse(TestFiles.shipped(name), 27, 29);
            assertEquals(27, t.columns());
            assertEquals(29, t.rows());
            assertEquals("Home", t.stateNames().get(0));
            assertEquals("Back probability", t.stateNames().get(27));
            assertEquals("End of Session", t.stateNames().get(28));
        }
        TransitionTable t = TransitionTable.parse(TestFiles.shipped("default_transitions.txt"), 27, 29);
        assertEquals("Default transition set", t.name());
        // Row "Register", column Home: probability of Home -> Register.
        assertEquals(0.07, t.probability(Interaction.REGISTER.ordinal(), Interaction.HOME.ordinal()), 1e-12);
        assertEquals(3000, t.waitingTimeMs(0));
    }

    @Test
    void columnSumReportListsTheDeviatingColumnsWithTheirSums() {
        TransitionTable t = TransitionTable.parse(TestFiles.shipped("default_transitions.txt"), 27, 29);
        Map<String, Double> dev = t.columnSumDeviations().stream()
                .collect(Collectors.toMap(TransitionTable.ColumnSum::state, TransitionTable.ColumnSum::sum));
        assertEquals(0.97, dev.get("Home"), 1e-9);
        assertEquals(1.2079, dev.get("SearchItemsInCategory"), 1e-9);
        assertEquals(1.2079, dev.get("ViewItem"), 1e-9);
        // Columns that do sum to 1 are not reported.
        for (TransitionTable.ColumnSum c : t.columnSumDeviations()) {
            assertTrue(Math.abs(c.sum() - 1) > TransitionTable.SUM_TOLERANCE, c.toString());
        }
        for (int col = 0; col < 27; col++) {
            boolean reported = dev.containsKey(t.stateNames().get(col));
            assertEquals(
                    Math.abs(t.columnSum(col) - 1) > 0.001,
                    reported,
                    t.stateNames().get(col));
        }
    }

    private Source variant(UnaryOperator<List<String>> edit) throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(
                TestFiles.propertiesDir().resolve("default_transitions.txt"), StandardCharsets.ISO_8859_1));
        Path p = tmp.resolve("t.txt");
        Files.write(p, edit.apply(lines), StandardCharsets.ISO_8859_1);
        return Source.file(p);
    }

    @Test
    void wrongColumnCountNamesTheLine() throws Exception {
        Source s = variant(l -> {
            List<String> cells = new ArrayList<>(List.of(l.get(5).split("\t", -1)));
            cells.remove(1);
            l.set(5, String.join("\t", cells));
            return l;
        });
        ConfigException e = assertThrows(ConfigException.class, () -> TransitionTable.parse(s, 27, 29));
        assertTrue(e.getMessage().contains("t.txt:6:"), e.getMessage());
        assertTrue(e.getMessage().contains("has 26 probability columns, expected 27"), e.getMessage());
    }

    @Test
    void nonNumericCellNamesLineAndColumn() throws Exception {
        Source s = variant(l -> {
            l.set(7, l.get(7).replaceFirst("\t0\t", "\tzero\t"));
            return l;
        });
        ConfigException e = assertThrows(ConfigException.class, () -> TransitionTable.parse(s, 27, 29));
        assertTrue(
                e.getMessage().matches(".*t\\.txt:8: column \\d+ = \"zero\" is not a number; expected a probability.*"),
                e.getMessage());
    }

    @Test
    void fewerRowsThanDeclared() throws Exception {
        Source s = variant(l -> l.subList(0, 20));
        ConfigException e = assertThrows(ConfigException.class, () -> TransitionTable.parse(s, 27, 29));
        assertTrue(e.getMessage().contains("found 16 data rows, expected 29"), e.getMessage());
    }

    @Test
    void notATransitionTable() throws Exception {
        Path p = TestFiles.write(tmp, "x.txt", "hello\tworld\n");
        ConfigException e = assertThrows(ConfigException.class, () -> TransitionTable.parse(Source.file(p), 27, 29));
        assertTrue(e.getMessage().contains("x.txt:1: expected \"RUBiS Transition Table<TAB>name\""), e.getMessage());
    }

    @Test
    void rowsMustBeColumnsPlusTwo() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> TransitionTable.parse(TestFiles.shipped("default_transitions.txt"), 27, 28));
        assertTrue(e.getMessage().contains("rows = columns + 2"), e.getMessage());
    }

    /** A state with no way out (its column all zero) is refused at load, validate included: the run would never leave it. */
    @Test
    void aColumnSummingToZeroIsRefused() throws Exception {
        Source s = variant(l -> {
            for (int line = 4; line < 4 + 29; line++) {
                String[] cells = l.get(line).split("\t", -1);
                cells[4] = "0"; // column 5: from Browse
                l.set(line, String.join("\t", cells));
            }
            return l;
        });
        ConfigException e = assertThrows(ConfigException.class, () -> TransitionTable.parse(s, 27, 29));
        assertTrue(
                e.getMessage()
                        .endsWith(
                                "t.txt:3: column 5 (from Browse) sums to 0: a session in Browse could never leave it; give it at least "
                                        + "one non-zero probability (the End of Session row ends the session)"),
                e.getMessage());
    }
}
