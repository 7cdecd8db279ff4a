package org.rubis.server.app;

import java.nio.charset.StandardCharsets;

/**
 * A complete reply: status, content type, body, and the RUBiS interaction it answered (the label
 * written to the ground-truth log, the same names the client uses).
 */
public record Response(int status, String contentType, byte[] body, String interaction) {

    public static Response html(String interaction, CharSequence html) {
        return new Response(
                200,
                "text/html; charset=ISO-8859-1",
                html.toString().getBytes(StandardCharsets.ISO_8859_1),
                interaction);
    }

    public static Response notFound(String path) {
        return new Response(
                404,
                "text/html; charset=ISO-8859-1",
                ("<html><body><h1>404 Not Found</h1>The requested URL " + Html.escape(path)
                                + " was not found on this server.</body></html>")
                        .getBytes(StandardCharsets.ISO_8859_1),
                "NotFound");
    }

    public static Response json(String interaction, String json) {
        return new Response(200, "application/json", json.getBytes(StandardCharsets.UTF_8), interaction);
    }
}
