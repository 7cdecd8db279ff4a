package org.rubis.format.text;

import java.util.Locale;
import org.rubis.format.schema.ClientHealth;

/**
 * The client's CPU per request, one definition for the summary (summary.txt's {@code CPU cost}) and the report: the
 * run phase's CPU divided by its requests with the fixed cost taken out (what the idle client burns per second,
 * measured before the first request): summary.json's {@code client_health.run_request_cpu_us}. When the fixed cost
 * was not measured, the gross figure ({@code run_cpu_us_per_request}) stands in, said to include it. At low rates
 * the gross figure is mostly the fixed cost spread over few requests, which is why it is not the headline.
 *
 * @param us          the figure: fixed cost apart when {@code fixedCostApart}, else the gross one
 * @param grossUs     the run phase's CPU per request, fixed cost included
 * @param kernelUs    of the gross figure, the kernel's part (-1: unknown)
 * @param fixedCores  the fixed cost in cores (-1: not measured), with its error and its idle window in seconds
 */
public record CpuPerRequest(
        double us,
        boolean fixedCostApart,
        double grossUs,
        double kernelUs,
        double fixedCores,
        double fixedError,
        double fixedWindowS) {

    /** From summary.json's {@code client_health} object. */
    public static CpuPerRequest of(ClientHealth health) {
        double gross = health.runCpuUsPerRequest();
        double fixed = orMinusOne(health.fixedCpuCores());
        double net = orMinusOne(health.runRequestCpuUs());
        boolean apart = fixed >= 0 && net >= 0;
        return new CpuPerRequest(
                apart ? net : gross,
                apart,
                gross,
                orMinusOne(health.runSystemCpuUsPerRequest()),
                fixed,
                orMinusOne(health.fixedCpuCoresError()),
                health.fixedCpuWindowS());
    }

    private static double orMinusOne(Double figure) {
        return figure == null ? -1 : figure;
    }

    /** The figure with what it is: {@code 933.9 us per request in the run phase, fixed cost apart}. */
    public String headline() {
        return String.format(
                Locale.ROOT,
                "%.1f us per request in the run phase, fixed cost %s",
                us,
                fixedCostApart ? "apart" : "included (not measured)");
    }

    /** The headline, then the gross figure, its kernel part and the fixed cost. */
    public String text() {
        String kernel = kernelUs < 0 ? "" : String.format(Locale.ROOT, ", %.1f of them in the kernel", kernelUs);
        if (!fixedCostApart) {
            return headline() + (kernel.isEmpty() ? "" : " (" + kernel.substring(2) + ")");
        }
        return headline()
                + String.format(
                        Locale.ROOT,
                        "; %.1f us with the fixed cost spread over the requests%s; fixed cost %.4f +- %.4f cores (idle %.1f s"
                                + " before the first request)",
                        grossUs,
                        kernel,
                        fixedCores,
                        fixedError,
                        fixedWindowS);
    }
}
