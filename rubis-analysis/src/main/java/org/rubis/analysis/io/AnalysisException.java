package org.rubis.analysis.io;

/** A problem with the input (missing or foreign directory, corrupt line): one line, no stack trace. */
@SuppressWarnings("serial") // an exception, Serializable only by inheritance: nothing serialises it
public final class AnalysisException extends RuntimeException {
    public AnalysisException(String message) {
        super(message, null, false, false);
    }
}
