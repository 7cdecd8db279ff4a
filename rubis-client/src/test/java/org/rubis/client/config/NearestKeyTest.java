package org.rubis.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NearestKeyTest {

    private static final List<String> KNOWN =
            List.of("workload_number_of_clients_per_node", "workload_transition_mode", "client_seed", "server_size");

    @Test
    void aTypoGetsTheKeyItWasMeantToBe() {
        assertEquals(
                Optional.of("workload_number_of_clients_per_node"),
                NearestKey.of("workload_number_of_client_per_node", KNOWN));
        assertEquals(Optional.of("workload_transition_mode"), NearestKey.of("workload_trasition_mode", KNOWN));
        assertEquals(
                Optional.of("client_seed"),
                NearestKey.of("client_sede", KNOWN),
                "a transposition: two edits, within a third of the key");
    }

    @Test
    void anUnrelatedKeyGetsNoSuggestion() {
        assertEquals(Optional.empty(), NearestKey.of("completely_unrelated", KNOWN));
        assertEquals(Optional.empty(), NearestKey.of("seed", KNOWN), "short keys are not all near each other");
    }

    @Test
    void distanceCountsEdits() {
        assertEquals(0, NearestKey.distance("abc", "abc"));
        assertEquals(1, NearestKey.distance("abc", "abxc"));
        assertEquals(1, NearestKey.distance("abc", "ab"));
        assertEquals(3, NearestKey.distance("", "abc"));
    }
}
