package org.rubis.format.fault;

/**
 * One rule of a {@link FaultSpec}: a kind and its parameter, the fraction of requests it hits, and
 * the window (milliseconds since the server started) in which it is active.
 *
 * @param fraction share of the requests arriving in the window that get this fault, 0..1
 * @param fromMs   start of the window, inclusive
 * @param toMs     end of the window, exclusive ({@link Long#MAX_VALUE}: until the server stops)
 */
public record FaultRule(FaultKind kind, long param, double fraction, long fromMs, long toMs) {

    public boolean activeAt(long elapsedMs) {
        return elapsedMs >= fromMs && elapsedMs < toMs;
    }

    /** The rule in spec syntax. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(kind.specName());
        if (kind.paramUnit() != null) {
            b.append('=').append(param);
        }
        if (kind.perRequest()) {
            b.append(':').append(fraction);
        }
        if (fromMs > 0 || toMs != Long.MAX_VALUE) {
            b.append('@').append(fromMs).append("ms");
            if (toMs != Long.MAX_VALUE) {
                b.append('-').append(toMs).append("ms");
            }
        }
        return b.toString();
    }
}
