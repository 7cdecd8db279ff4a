package org.rubis.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rubis.client.input.Source;

/** The shipped files, read from the rubis-properties module (tests run with the module as working directory). */
public final class TestFiles {
    private TestFiles() {}

    public static Path propertiesDir() {
        Path p = Path.of("..", "rubis-properties").toAbsolutePath().normalize();
        if (!Files.isDirectory(p)) {
            throw new IllegalStateException("rubis-properties not found at " + p);
        }
        return p;
    }

    public static Source shipped(String name) {
        return Source.file(propertiesDir().resolve(name));
    }

    public static Path write(Path dir, String name, String content) {
        try {
            Path p = dir.resolve(name);
            Files.writeString(p, content);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
