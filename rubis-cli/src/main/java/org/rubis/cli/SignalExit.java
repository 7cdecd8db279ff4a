package org.rubis.cli;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.rubis.client.report.ExitStatus;

/**
 * The exit status of a command stopped by SIGINT or SIGTERM is the command's own. The JVM answers both signals by
 * running the shutdown hooks, then exiting 128 + the signal's number whatever the command returned: a run stopped by
 * SIGTERM exited 143 instead of its documented 130 ({@code partial}). Here, once the command's own hooks have stopped
 * its work (a run writes its partial run directory, a parent stops its child JVMs), the main thread returns its status
 * and this hook halts the JVM with it; a command that has not returned after {@link #WAIT_SECONDS} exits
 * {@link ExitStatus#PARTIAL}, as a stopped one would.
 */
final class SignalExit {

    /** Longer than a child JVM's grace to write its summary (90 s) and a run's shutdown wait (60 s). */
    static final long WAIT_SECONDS = 120;

    private static final CompletableFuture<Integer> STATUS = new CompletableFuture<>();
    /** The main thread called {@link #exit}: the shutdown is its own, with its status. */
    private static volatile boolean exiting;
    /** The shutdown began without the main thread: a signal (or a watcher's System.exit). */
    private static volatile boolean signalled;

    private SignalExit() {}

    static void install() {
        Runtime.getRuntime().addShutdownHook(new Thread(SignalExit::onShutdown, "rubis-client-exit-status"));
    }

    /** Whether the JVM is shutting down for a signal: what then fails in the command is the stop's doing. */
    static boolean signalled() {
        return signalled;
    }

    /** Exits with the command's status, which a signal's shutdown, when one is under way, takes as its own. */
    static void exit(int status) {
        exiting = true;
        STATUS.complete(status);
        System.exit(status); // blocks while a signal's shutdown runs its hooks: onShutdown halts with the status
    }

    private static void onShutdown() {
        if (exiting) {
            return; // System.exit from the main thread: the JVM exits with its status
        }
        signalled = true;
        int status;
        try {
            status = STATUS.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            status = ExitStatus.PARTIAL;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = ExitStatus.PARTIAL;
        }
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(status);
    }
}
