package org.rubis.client.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.rubis.client.assertion.Assertion;
import org.rubis.client.assertion.AssertionCheck;
import org.rubis.client.report.ExitStatus;

/** The end of a run that asserts: the bounds checked on its summary.json, the failures printed, the exit status. */
final class RunAssertions {

    private RunAssertions() {}

    /**
     * Checks the run's assertions on its summary.json (recording the outcome there), prints the failures, and gives the
     * exit status: the run's own when it is not 0, else {@link ExitStatus#ASSERTION_FAILED} when one failed.
     */
    static int check(List<Assertion> all, Path dir, int status) throws IOException {
        if (all.isEmpty()) {
            return status;
        }
        List<AssertionCheck.Result> results = AssertionCheck.check(dir, all);
        if (results.isEmpty()) {
            System.err.println("error: assertions not checked: " + dir + " holds no summary.json");
            return status == ExitStatus.OK ? ExitStatus.ASSERTION_FAILED : status;
        }
        System.out.print(AssertionCheck.text(results));
        long failed = results.stream().filter(r -> !r.passed()).count();
        if (failed > 0) {
            System.err.println("error: " + failed + " of " + results.size() + " assertions failed");
        }
        return status == ExitStatus.OK && failed > 0 ? ExitStatus.ASSERTION_FAILED : status;
    }
}
