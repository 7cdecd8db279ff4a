package org.rubis.client.backend;

import java.io.IOException;

/**
 * A page longer than {@link Backend#MAX_PAGE_BYTES}, announced or read: the blocking backends throw it to end the read,
 * and classify it {@link org.rubis.format.run.ErrorClass#TOO_LARGE}. No stack trace: it is an outcome, not a bug.
 */
@SuppressWarnings("serial") // an exception, Serializable only by inheritance: nothing serialises it
final class PageTooLarge extends IOException {

    PageTooLarge() {
        super("page larger than " + Backend.MAX_PAGE_BYTES + " bytes", null);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
