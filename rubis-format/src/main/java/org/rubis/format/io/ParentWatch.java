package org.rubis.format.io;

import java.io.IOException;
import java.io.InputStream;

/**
 * Ends a child process when the process that started it is gone: a client killed with {@code kill -9} cannot stop
 * its embedded server or the client JVM of {@code run --jvm-profile}, which would otherwise go on loading the target
 * to the end. Two signals, whichever comes first: the parent process exits, or standard input reaches end of file
 * (the parent held its write end: the kernel closes it when the parent dies). The caller's exit then runs its
 * shutdown hook, which flushes its logs. Shared by rubis-server and rubis-client.
 */
public final class ParentWatch {

    private ParentWatch() {}

    /** Starts the watch; {@code onOrphaned} runs once, on a daemon thread. */
    public static void start(Runnable onOrphaned) {
        Runnable once = new Runnable() {
            private boolean done;

            @Override
            public synchronized void run() {
                if (!done) {
                    done = true;
                    onOrphaned.run();
                }
            }
        };
        ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(() -> daemon(once, "parent-exit")));
        daemon(
                () -> {
                    InputStream in = System.in;
                    byte[] buf = new byte[256];
                    try {
                        while (in.read(buf) >= 0) {
                            // Whatever the parent writes is ignored; only the end of the stream matters.
                        }
                    } catch (IOException e) {
                        // A broken pipe is the same news as end of file.
                    }
                    once.run();
                },
                "stdin-watch");
    }

    private static void daemon(Runnable r, String name) {
        Thread t = new Thread(r, "parent-watch-" + name);
        t.setDaemon(true);
        t.start();
    }
}
