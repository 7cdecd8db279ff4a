package org.rubis.client.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rubis.client.workload.Interaction;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.Phase;
import org.rubis.format.run.SessionEnd;

/**
 * The byte formatter writes exactly what the JDK's own decimal and UTF-8 conversions write: the log's
 * readers (and every run directory written before) expect that text.
 */
class CsvLineTest {

    private static String formatted(long v) {
        return new CsvLine(4).append(v).toString();
    }

    @Test
    void numbersAreTheirJdkDecimalForm() {
        long[] edges = {
            0,
            1,
            -1,
            9,
            10,
            99,
            100,
            101,
            999_999_999_999_999_999L,
            1_000_000_000_000_000_000L,
            Long.MAX_VALUE,
            Long.MIN_VALUE,
            Long.MIN_VALUE + 1,
            Integer.MAX_VALUE,
            Integer.MIN_VALUE
        };
        for (long v : edges) {
            assertEquals(Long.toString(v), formatted(v));
        }
        for (long p = 1; p > 0 && p < Long.MAX_VALUE / 10; p *= 10) {
            for (long v : new long[] {p - 1, p, p + 1, -p, -(p - 1)}) {
                assertEquals(Long.toString(v), formatted(v));
            }
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            long v = random.nextLong() >> random.nextInt(64);
            assertEquals(Long.toString(v), formatted(v));
        }
    }

    @Test
    void textIsUtf8AndFieldsAreQuotedLikeRfc4180() throws IOException {
        CsvLine line = new CsvLine(2);
        line.append("/PHP/ViewItem.php?itemId=12")
                .comma()
                .field("/a,b")
                .comma()
                .field("say \"hi\"")
                .comma()
                .append("caf\u00e9 \u20ac \ud83d\ude00")
                .comma()
                .append((String) null)
                .comma()
                .append(true)
                .newline();
        String expected =
                "/PHP/ViewItem.php?itemId=12,\"/a,b\",\"say \"\"hi\"\"\",caf\u00e9 \u20ac \ud83d\ude00,null,true\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        line.writeTo(out);
        assertArrayEquals(expected.getBytes(StandardCharsets.UTF_8), out.toByteArray());
        assertEquals(0, line.length(), "written lines leave the buffer");
    }

    /** What a StringBuilder and a UTF-8 encoder wrote for a field: quoted (RFC 4180) when it holds , " CR or LF. */
    private static String referenceField(String s) {
        boolean quote = s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0;
        return quote ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    @Test
    void anyTextIsWrittenAsTheJdkWritesItAtEveryLengthAndPosition() {
        // every character class the fast path tells apart, at every position of strings long enough to cross the
        // JIT's vector width and the scratch array's growth
        char[] alphabet = {
            'a', 'Z', '0', '/', '?', '&', '=', ',', '"', '\n', '\r', '@', '`', '~', 0x7f, 0x80, '\u00e9', '\u20ac', 'l',
            'L'
        };
        SplittableRandom random = new SplittableRandom(11);
        CsvLine line = new CsvLine(8);
        for (int i = 0; i < 20_000; i++) {
            int n = random.nextInt(i % 50 == 0 ? 600 : 70);
            StringBuilder b = new StringBuilder(n);
            boolean plain = random.nextInt(3) > 0; // mostly ASCII without specials: the fast path's case
            for (int k = 0; k < n; k++) {
                b.append(plain ? (char) ('a' + random.nextInt(26)) : alphabet[random.nextInt(alphabet.length)]);
            }
            if (plain && n > 0 && random.nextBoolean()) {
                b.setCharAt(random.nextInt(n), alphabet[random.nextInt(alphabet.length)]); // one odd character anywhere
            }
            String s = b.toString();
            line.truncate(0);
            line.append(s).comma().field(s);
            assertEquals(
                    s + "," + referenceField(s),
                    line.toString(),
                    () -> "text " + s.chars().mapToObj(Integer::toHexString).toList());
        }
    }

    @Test
    void aLoneSurrogateIsWrittenAsAQuestionMarkNotAFailedBatch() {
        assertEquals("a?b", new CsvLine(4).append("a\ud800b").toString());
    }

    @Test
    void aRecordIsTheSameLineItAlwaysWas() {
        RequestRecord r = new RequestRecord(
                42,
                "user7",
                3,
                Interaction.VIEW_ITEM,
                "/PHP/ViewItem.php?itemId=5&x=a,b",
                Phase.RUN,
                1_700_000_000_123_456_789L,
                1_700_000_000_123_999_000L,
                81_234,
                1_234_567,
                2048,
                200,
                null,
                false,
                "17",
                true,
                "netty",
                0,
                0,
                1,
                2,
                "127.0.0.1:40512",
                null);
        CsvLine line = new CsvLine(16);
        r.appendCsv(line);
        assertEquals(
                "42,user7,3,ViewItem,\"/PHP/ViewItem.php?itemId=5&x=a,b\",run,1700000000123456789,1700000000123999000,"
                        + "81234,1234567,2048,200,,17,true,netty,0,0,1,2,127.0.0.1:40512\n",
                line.toString());
        line.truncate(0);
        new SessionRecord(42, 7, "user7", -5, 10, 20, 3, 1, SessionEnd.END_OF_SESSION).appendCsv(line);
        assertEquals("42,7,user7,-5,10,20,3,1,end_of_session\n", line.toString());
    }

    /** The kernel backend's line: its eight columns after interval, as many fields as its header, a missing stamp empty. */
    @Test
    void aKernelRecordHasTheKernelColumns() {
        KernelMarks k = new KernelMarks(true, 1_000, 90, 400, 1_010, 1_012, 0, 1_380);
        RequestRecord r = new RequestRecord(
                1,
                "u",
                0,
                Interaction.HOME,
                "/",
                Phase.RUN,
                990,
                1_010,
                60,
                370,
                10,
                200,
                null,
                false,
                "7",
                false,
                "kernel",
                0,
                0,
                0,
                0,
                "127.0.0.1:1",
                k);
        CsvLine line = new CsvLine(16);
        r.appendCsv(line, true);
        String text = line.toString();
        assertEquals(
                "1,u,0,Home,/,run,990,1010,60,370,10,200,,7,false,kernel,0,0,0,0,127.0.0.1:1,kernel,1000,90,400,1010,1012,,1380\n",
                text);
        assertEquals(
                org.rubis.format.run.Columns.REQUESTS_WITH_KERNEL.size(),
                text.strip().split(",", -1).length);
        line.truncate(0);
        r.appendCsv(line, false);
        assertEquals(
                org.rubis.format.run.Columns.REQUESTS.size(),
                line.toString().strip().split(",", -1).length);
    }

    /**
     * The typed error is written as the column always held it (docs/RUN-DIRECTORY.md), and as the statistics count it.
     */
    @Test
    void theErrorColumnNamesTheClassTheStatusAndTheImage() {
        Object[][] cases = {
            {ErrorClass.REFUSED, false, 0, "refused"},
            {ErrorClass.HTTP_STATUS, false, 503, "http-503"},
            {ErrorClass.ERROR_PAGE, false, 200, "error-page"},
            {ErrorClass.READ_TIMEOUT, true, 200, "image-read-timeout"},
            {ErrorClass.CLOSED_BEFORE_ANY_BYTE, false, 0, "closed-before-any-byte"},
            {ErrorClass.CLIENT, false, 0, "client-error"},
        };
        for (Object[] c : cases) {
            RequestRecord r = new RequestRecord(
                    1,
                    "u",
                    0,
                    Interaction.HOME,
                    "/",
                    Phase.UP,
                    1,
                    2,
                    3,
                    4,
                    5,
                    (Integer) c[2],
                    (ErrorClass) c[0],
                    (Boolean) c[1],
                    "",
                    false,
                    "legacy",
                    0,
                    0,
                    0,
                    -1,
                    "",
                    null);
            CsvLine line = new CsvLine(16);
            r.appendCsv(line);
            assertEquals(
                    "1,u,0,Home,/,up,1,2,3,4,5," + c[2] + "," + c[3] + ",,false,legacy,0,0,0,,\n", line.toString());
            assertEquals(c[3], r.errorLabel());
            assertEquals(c[0], ErrorClass.parse((String) c[3]), "read back as its class: " + c[3]);
        }
        for (SessionEnd e : SessionEnd.values()) {
            CsvLine line = new CsvLine(16);
            new SessionRecord(1, 2, "u", 3, 4, 5, 6, 7, e).appendCsv(line);
            assertEquals("1,2,u,3,4,5,6,7," + e.name().toLowerCase(Locale.ROOT) + "\n", line.toString());
            assertEquals(e, SessionEnd.parse(e.label()));
        }
    }
}
