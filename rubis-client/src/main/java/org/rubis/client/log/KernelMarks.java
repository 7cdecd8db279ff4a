package org.rubis.client.log;

/**
 * The kernel backend's marks of one request, beside the published ones in requests.csv: which clock the published
 * times come from, the user-space times (when the kernel's are published in place of them), and the kernel's four
 * stamps, all as epoch nanoseconds on the run's clock (0: the kernel gave none, written empty).
 *
 * @param kernelPublished the request's {@code send_epoch_ns}, {@code ttfb_ns} and {@code response_ns} are the
 *                        kernel's (else the user-space marks, as on the other backends)
 */
public record KernelMarks(
        boolean kernelPublished,
        long userSendEpochNs,
        long userTtfbNs,
        long userResponseNs,
        long txFirstEpochNs,
        long txLastEpochNs,
        long rxFirstEpochNs,
        long rxLastEpochNs) {

    /** The {@code clock} column's value. */
    public String clock() {
        return kernelPublished ? "kernel" : "user";
    }

    /** The user-space send side: from the send mark to the request's first byte at the device, ns; -1 unknown. */
    public long sendCostNs() {
        return txFirstEpochNs == 0 ? -1 : txFirstEpochNs - userSendEpochNs;
    }

    /** The user-space receive side: from the last byte at the device to the user-space end mark, ns; -1 unknown. */
    public long receiveCostNs() {
        return rxLastEpochNs == 0 ? -1 : userSendEpochNs + userResponseNs - rxLastEpochNs;
    }
}
