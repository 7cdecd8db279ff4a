package org.rubis.client.workload;

/**
 * The {@code database_*} data-generation policy of rubis.properties. The client uses it to build
 * RegisterUser, RegisterItem and StoreComment parameters exactly as the original did.
 */
public record DatabasePolicy(
        int users,
        int oldItems,
        int percentUniqueItems,
        int percentReservePrice,
        int percentBuyNow,
        int maxQuantityForMultipleItems,
        int itemDescriptionLength,
        int maxBidsPerItem,
        int maxCommentsPerUser,
        int commentMaxLength) {}
