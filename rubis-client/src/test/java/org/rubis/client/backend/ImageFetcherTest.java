package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rubis.format.run.ErrorClass;

class ImageFetcherTest {

    static final String PAGE =
            "<IMG SRC=\"/PHP/RUBiS_logo.jpg\" height=40><img src=\"/PHP/bid_now.jpg\"><IMG SRC=\"http://elsewhere/x.gif\">";

    @Test
    void sitePathsInOrderCaseInsensitiveSkippingOtherHosts() {
        assertEquals(List.of("/PHP/RUBiS_logo.jpg", "/PHP/bid_now.jpg"), ImageFetcher.paths(PAGE));
        assertEquals(List.of(), ImageFetcher.paths(null));
    }

    @Test
    void imagesAreCountedAndAFailedImageKeepsThePage() {
        Reply ok = new Reply();
        ok.body = PAGE;
        new ImageFetcher(p -> 100).fetchAfter(ok);
        assertEquals(2, ok.images);
        assertEquals(200, ok.imageBytes);
        assertEquals("", ok.errorLabel());

        Reply broken = new Reply();
        broken.body = PAGE;
        new ImageFetcher(p -> {
                    if (p.endsWith("bid_now.jpg")) {
                        throw new ConnectException("Connection refused");
                    }
                    return 100;
                })
                .fetchAfter(broken);
        assertEquals(1, broken.images);
        assertEquals(ErrorClass.REFUSED, broken.error(), "counted as the request's error");
        assertTrue(broken.imageError(), "an image's");
        assertEquals("image-refused", broken.errorLabel(), "as requests.csv names it");
        assertEquals(PAGE, broken.body, "the page itself arrived and stays usable");

        Reply failedPage = new Reply();
        failedPage.fail(ErrorClass.READ_TIMEOUT);
        new ImageFetcher(p -> {
                    throw new IOException("must not be called");
                })
                .fetchAfter(failedPage);
        assertEquals("read-timeout", failedPage.errorLabel());
        assertTrue(failedPage.failed());
    }
}
