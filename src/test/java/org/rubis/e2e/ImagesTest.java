package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The original's image download, off by default, counted apart from pages, in every kind of backend: a blocking one
 * and the event loop, side by side, each against its own server (whose stats.json counts the images).
 */
@Execution(ExecutionMode.CONCURRENT)
class ImagesTest {

    @TempDir
    Path work;

    @ParameterizedTest
    @ValueSource(strings = {"legacy", "netty"})
    void imagesAreFetchedAndCountedSeparately(String backend) throws Exception {
        Cli.Result r = Cli.run(
                work,
                120,
                "run",
                "--backend",
                backend,
                "--users",
                "10",
                "--ramp-up",
                "0",
                "--duration",
                "3s",
                "--ramp-down",
                "0",
                "--think-scale",
                "0.03",
                "--seed",
                "5",
                "--out",
                backend,
                "--no-progress",
                "-Dserver_size=0.02",
                "-Dclient_download_images=yes");
        assertEquals(0, r.status(), r.out() + r.err());
        RunDir d = new RunDir(work.resolve(backend));
        List<Map<String, String>> rows = d.csv("requests.csv");
        long images =
                rows.stream().mapToLong(x -> Long.parseLong(x.get("images"))).sum();
        assertTrue(images >= rows.size(), backend + ": every page has at least the logo: " + images);
        JsonNode s = d.json("server/stats.json");
        assertEquals(
                images, s.get("by_interaction").get("Image").asLong(), backend + ": the server served each image once");
        assertEquals(rows.size() + images, s.get("requests").asLong());
        assertEquals(images, d.json("summary.json").get("image_requests").asLong());
    }
}
