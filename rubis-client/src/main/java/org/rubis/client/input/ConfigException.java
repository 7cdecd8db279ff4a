package org.rubis.client.input;

/**
 * A user mistake in configuration or input files. Its message is one line that names the file,
 * line or key and says what was expected; the CLI prints it without a stack trace.
 */
@SuppressWarnings("serial") // an exception, Serializable only by inheritance: nothing serialises it
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message, null, false, false);
    }
}
