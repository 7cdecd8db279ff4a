package org.rubis.format.schema;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One of {@code heap_per_user.top_classes}: a class that grew with the users.
 */
public record TopClass(@JsonProperty("class") String className, double bytesPerUser, double instancesPerUser) {}
