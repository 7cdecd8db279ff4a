package org.rubis.client.input;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where a configuration file comes from: the file system, or the defaults packaged in the jar
 * under {@code rubis/}. Relative names inside a file resolve against the file's own location, so
 * a properties file and its tables can be moved together, and the packaged defaults work alone.
 */
public sealed interface Source {

    /** Name used in error messages, e.g. {@code rubis-properties/rubis.properties}. */
    String displayName();

    BufferedReader open();

    boolean exists();

    /** The source a relative (or absolute) name written inside this file refers to. */
    Source resolve(String name);

    static Source file(Path path) {
        return new FileSource(path);
    }

    static Source classpath(String name) {
        return new ClasspathSource(name);
    }

    record FileSource(Path path) implements Source {
        @Override
        public String displayName() {
            return path.toString();
        }

        @Override
        public boolean exists() {
            return Files.isRegularFile(path);
        }

        @Override
        public BufferedReader open() {
            if (!exists()) {
                throw new ConfigException(
                        path + ": file not found" + (Files.isDirectory(path) ? " (it is a directory)" : ""));
            }
            try {
                return Source.reader(Files.readAllBytes(path));
            } catch (IOException e) {
                throw new ConfigException(path + ": cannot read: " + e.getMessage());
            }
        }

        @Override
        public Source resolve(String name) {
            Path p = Path.of(name);
            if (p.isAbsolute()) {
                return new FileSource(p);
            }
            Path dir = path.toAbsolutePath().getParent();
            return new FileSource(dir == null ? p : dir.resolve(p).normalize());
        }
    }

    record ClasspathSource(String name) implements Source {
        private static final String ROOT = "rubis/";

        @Override
        public String displayName() {
            return "classpath:" + ROOT + name;
        }

        @Override
        public boolean exists() {
            return Source.class.getClassLoader().getResource(ROOT + name) != null;
        }

        @Override
        public BufferedReader open() {
            InputStream in = Source.class.getClassLoader().getResourceAsStream(ROOT + name);
            if (in == null) {
                throw new ConfigException(displayName() + ": not packaged in this jar");
            }
            try (in) {
                return Source.reader(in.readAllBytes());
            } catch (IOException e) {
                throw new ConfigException(displayName() + ": cannot read: " + e.getMessage());
            }
        }

        @Override
        public Source resolve(String other) {
            Path p = Path.of(other);
            if (p.isAbsolute()) {
                return new FileSource(p);
            }
            // Packaged defaults name their companions by plain file name.
            return new ClasspathSource(p.getFileName().toString());
        }
    }

    /**
     * A file's text: UTF-8, as editors write today (a path {@code tablé.txt} in a properties file read as Latin-1 named
     * no file), else ISO-8859-1, the properties format's own encoding, for a file that is not UTF-8 (as {@code
     * PropertyResourceBundle} reads since Java 9).
     */
    private static BufferedReader reader(byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            text = new String(bytes, StandardCharsets.ISO_8859_1);
        }
        return new BufferedReader(new StringReader(text));
    }

    /** Reads all lines, turning I/O failures into a one-line error. */
    default List<String> readLines() {
        try (BufferedReader r = open()) {
            return r.lines().toList();
        } catch (IOException | UncheckedIOException e) {
            throw new ConfigException(displayName() + ": cannot read: " + e.getMessage());
        }
    }
}
