package org.rubis.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads a run directory as scripts would: CSV with a header row, JSON summaries. */
final class RunDir {

    final Path dir;

    RunDir(Path dir) {
        this.dir = dir;
    }

    /** Rows of a CSV file as maps keyed by the header; fails on a row with the wrong field count. */
    List<Map<String, String>> csv(String name) throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve(name));
        if (lines.isEmpty()) {
            throw new AssertionError(name + " is empty");
        }
        String[] header = lines.get(0).split(",", -1);
        List<Map<String, String>> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            List<String> f = split(lines.get(i));
            if (f.size() != header.length) {
                throw new AssertionError(name + ":" + (i + 1) + " has " + f.size() + " fields, header has "
                        + header.length + ": " + lines.get(i));
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int k = 0; k < header.length; k++) {
                row.put(header[k], f.get(k));
            }
            rows.add(row);
        }
        return rows;
    }

    List<String> header(String name) throws IOException {
        return List.of(Files.readAllLines(dir.resolve(name)).get(0).split(","));
    }

    JsonNode json(String name) throws IOException {
        return new ObjectMapper().readTree(dir.resolve(name).toFile());
    }

    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder b = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    b.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    b.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(b.toString());
                b.setLength(0);
            } else {
                b.append(c);
            }
        }
        out.add(b.toString());
        return out;
    }
}
