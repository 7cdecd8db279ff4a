package org.rubis.format.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** What {@link Printable#escape} shows of text quoted from input. */
class PrintableTest {

    @Test
    void controlAndReorderingCharactersAreEscapedTheRestIsKept() {
        assertEquals("a\\x1b[31mb\\x07c\\x0ad\\x0d\\x09", Printable.escape("a\u001b[31mb\u0007c\nd\r\t"));
        assertEquals("\\x7f\\x9b2J\\x80", Printable.escape("\u007f\u009b2J\u0080"));
        assertEquals(
                "abc<U+202E>evil<U+2066>x<U+200B>y<U+FEFF>", Printable.escape("abc\u202eevil\u2066x\u200by\ufeff"));
        assertEquals("café ünïcode € 日本", Printable.escape("café ünïcode € 日本"));
        assertEquals("null", Printable.escape(null));
        String plain = "file.properties:3: users = \"abc\": not an int";
        assertSame(plain, Printable.escape(plain), "nothing to escape: the same string");
    }
}
