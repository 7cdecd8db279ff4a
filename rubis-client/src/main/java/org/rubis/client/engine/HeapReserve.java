package org.rubis.client.engine;

/** A few MiB held during the run and released on OutOfMemoryError, so that logs and summary can still be written. */
final class HeapReserve {

    private static volatile byte[] reserve;

    private HeapReserve() {}

    static void hold() {
        reserve = new byte[(int) Math.min(4L << 20, Runtime.getRuntime().maxMemory() / 64)];
    }

    static void release() {
        reserve = null;
    }

    /** An OutOfMemoryError, or an error it caused (a lambda bootstrap that failed for want of heap). */
    static boolean outOfMemory(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof OutOfMemoryError) {
                return true;
            }
        }
        return false;
    }
}
