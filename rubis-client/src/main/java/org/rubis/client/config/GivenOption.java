package org.rubis.client.config;

/**
 * A command-line option that sets a configuration key ({@code --duration 0} sets
 * {@code workload_session_run_time_in_ms = 0}): errors about the key's value then name the option and the text
 * the user typed, not a property the user never wrote (and whose unit may differ: {@code --duration} is in s).
 *
 * @param option the option, e.g. {@code --duration}
 * @param text   the value as typed, e.g. {@code 0} or {@code 500ms}
 */
public record GivenOption(String option, String text) {}
