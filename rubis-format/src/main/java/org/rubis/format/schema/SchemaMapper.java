package org.rubis.format.schema;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one mapping of the schema's records to the files' snake_case keys. Readers are lenient by default, so that a
 * run directory written by a later version (keys added, never removed: docs/RUN-DIRECTORY.md) still loads; the
 * strict mapper is the tests' proof that nothing is written that the schema lacks.
 */
public final class SchemaMapper {

    /** Ignores keys the records lack: a newer writer's additions. */
    public static final ObjectMapper LENIENT = mapper(false);
    /** Refuses a key the records lack. */
    public static final ObjectMapper STRICT = mapper(true);

    private SchemaMapper() {}

    private static ObjectMapper mapper(boolean strict) {
        return JsonMapper.builder()
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, strict)
                .build();
    }
}
