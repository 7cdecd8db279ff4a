package org.rubis.lab.reproduce;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * reproduction.json and reproduction.html: for each finding the published figure, ours, the verdict
 * with its reason, the plots and the run directories. Written after every experiment, so an
 * interrupted reproduction still leaves a report of what finished.
 */
final class ReproductionReport {

    static final String JSON = "reproduction.json";
    static final String HTML = "reproduction.html";

    private ReproductionReport() {}

    static void write(Path out, ObjectNode meta, List<Finding> findings) throws IOException {
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = m.createObjectNode();
        root.setAll(meta);
        ArrayNode arr = root.putArray("findings");
        for (Finding f : findings) {
            ObjectNode o = arr.addObject();
            o.put("name", f.name());
            o.put("title", f.title());
            o.put("source", f.source());
            o.put("published", f.published());
            o.put("measured", f.measured());
            o.put("verdict", f.verdict().label());
            o.put("why", f.why());
            ArrayNode figs = o.putArray("figures");
            for (Figure fig : f.figures()) {
                figs.addObject().put("file", fig.file()).put("caption", fig.caption());
            }
            o.set("data", f.data());
            ArrayNode runs = o.putArray("runs");
            f.runs().forEach(r -> runs.add(out.relativize(r.toAbsolutePath()).toString()));
        }
        Files.writeString(out.resolve(JSON), m.writeValueAsString(root), StandardCharsets.UTF_8);
        Files.writeString(out.resolve(HTML), html(out, meta, findings), StandardCharsets.UTF_8);
    }

    private static String html(Path out, ObjectNode meta, List<Finding> findings) {
        StringBuilder b = new StringBuilder(8192);
        b.append(
                        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>rubis-client reproduction</title>\n<style>")
                .append("body{font-family:sans-serif;max-width:1000px;margin:1em auto;line-height:1.4}")
                .append(
                        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top;text-align:left}")
                .append(
                        ".reproduced{color:#060}.not-reproduced{color:#a00}.skipped{color:#777}.failed{color:#a00;font-weight:bold}")
                .append("pre{background:#f6f6f6;padding:6px;white-space:pre-wrap}</style></head><body>\n")
                .append("<h1>Reproduction of the published findings</h1>\n<p>")
                .append(esc(meta.path("command").asText()))
                .append("<br>scale: ")
                .append(esc(meta.path("scale").asText()))
                .append(", target: ")
                .append(esc(meta.path("target").asText()))
                .append(", started ")
                .append(esc(meta.path("started").asText()))
                .append(", ")
                .append(esc(meta.path("host").asText()))
                .append("</p>\n")
                .append(
                        "<p>The published figures come from real networks and 2000s hardware; ours from loopback on this machine. "
                                + "What is compared is the shape of each effect (its direction and ordering), not its magnitude.</p>\n");
        b.append("<table><tr><th>finding</th><th>published</th><th>measured here</th><th>shape</th></tr>\n");
        for (Finding f : findings) {
            b.append("<tr><td><a href=\"#")
                    .append(f.name())
                    .append("\">")
                    .append(esc(f.title()))
                    .append("</a><br><small>")
                    .append(esc(f.source()))
                    .append("</small></td><td>")
                    .append(esc(f.published()))
                    .append("</td><td>")
                    .append(esc(f.measured()))
                    .append("</td><td class=\"")
                    .append(f.verdict().label().replace(' ', '-'))
                    .append("\">")
                    .append(f.verdict().label())
                    .append("</td></tr>\n");
        }
        b.append("</table>\n");
        for (Finding f : findings) {
            b.append("<h2 id=\"")
                    .append(f.name())
                    .append("\">")
                    .append(esc(f.title()))
                    .append("</h2>\n<p><small>")
                    .append(esc(f.source()))
                    .append("</small></p>\n<p><b>Published:</b> ")
                    .append(esc(f.published()))
                    .append("</p>\n<p><b>Measured here:</b> ")
                    .append(esc(f.measured()))
                    .append("</p>\n<p class=\"")
                    .append(f.verdict().label().replace(' ', '-'))
                    .append("\"><b>")
                    .append(f.verdict().label())
                    .append(":</b> ")
                    .append(esc(f.why()))
                    .append("</p>\n");
            for (Figure fig : f.figures()) {
                b.append("<figure><img src=\"")
                        .append(esc(fig.file()))
                        .append("\" alt=\"")
                        .append(esc(fig.caption()))
                        .append("\"><figcaption>")
                        .append(esc(fig.caption()))
                        .append("</figcaption></figure>\n");
            }
            if (!f.runs().isEmpty()) {
                b.append("<details><summary>run directories (")
                        .append(f.runs().size())
                        .append(")</summary><pre>");
                f.runs()
                        .forEach(r -> b.append(
                                        esc(out.relativize(r.toAbsolutePath()).toString()))
                                .append('\n'));
                b.append("</pre></details>\n");
            }
        }
        b.append("</body></html>\n");
        return b.toString();
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
