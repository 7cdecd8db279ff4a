package org.rubis.server;

import java.io.IOException;
import java.io.InputStream;

/**
 * Ends the server when the process that started it is gone: a client killed with {@code kill -9}
 * cannot stop its embedded server, which would otherwise keep listening with its heap. Two signals,
 * whichever comes first: the parent process exits, or standard input reaches end of file (the
 * parent held its write end). Exiting runs the shutdown hook, which flushes the ground-truth logs.
 */
final class ParentWatch {

    private ParentWatch() {}

    /** Starts the watch; {@code onOrphaned} runs once, on a daemon thread. */
    static void start(Runnable onOrphaned) {
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
        daemon(() -> {
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
        }, "stdin-watch");
    }

    private static void daemon(Runnable r, String name) {
        Thread t = new Thread(r, "rubis-server-" + name);
        t.setDaemon(true);
        t.start();
    }
}
