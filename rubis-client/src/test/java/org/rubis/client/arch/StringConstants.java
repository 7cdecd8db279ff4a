package org.rubis.client.arch;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The string literals of a class, read from its class file's constant pool (CONSTANT_String entries: literals, constant
 * fields, the recipes of string concatenations): what the code names, which ArchUnit's model of dependencies does not
 * hold. Annotation values are not among them, so an {@code @Option(names = "--users")} is not a literal here.
 */
public final class StringConstants {

    private StringConstants() {}

    /** The string literals of {@code c}'s class file. */
    public static Set<String> of(JavaClass c) {
        URI uri = c.getSource()
                .orElseThrow(() -> new IllegalStateException("no class file for " + c.getName()))
                .getUri();
        try (InputStream in = uri.toURL().openStream()) {
            return parse(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + uri, e);
        }
    }

    /** A class satisfies it when none of its string literals is {@code forbidden}; the violation names the literals. */
    public static ArchCondition<JavaClass> nameNoLiteral(String description, Predicate<String> forbidden) {
        return new ArchCondition<>("name no " + description + " in their code") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                List<String> found = of(c).stream().filter(forbidden).toList();
                events.add(new SimpleConditionEvent(
                        c, found.isEmpty(), c.getName() + " names " + description + " " + found));
            }
        };
    }

    /** The CONSTANT_String values of a class file (JVMS 4.4). */
    static Set<String> parse(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort(); // minor version
        in.readUnsignedShort(); // major version
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        List<Integer> strings = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF(); // the class file's modified UTF-8 is DataInput's
                case 8 -> strings.add(in.readUnsignedShort());
                case 7, 16, 19, 20 -> in.skipNBytes(2); // Class, MethodType, Module, Package
                case 15 -> in.skipNBytes(3); // MethodHandle
                case 3, 4, 9, 10, 11, 12, 17, 18 ->
                    in.skipNBytes(4); // Integer, Float, refs, NameAndType, (Invoke)Dynamic
                case 5, 6 -> {
                    in.skipNBytes(8); // Long, Double take two entries
                    i++;
                }
                default -> throw new IOException("unknown constant pool tag " + tag + " at entry " + i);
            }
        }
        Set<String> values = new TreeSet<>();
        strings.forEach(s -> values.add(utf8[s]));
        return values;
    }
}
