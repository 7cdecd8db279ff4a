package org.rubis.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost and granularity of the two clocks. The granularity benchmarks spin until the clock changes,
 * so their time per operation is the clock's step: the reason sub-millisecond responses read as
 * 0 ms with {@code currentTimeMillis} (FINDINGS A.3) and why every interval here uses {@code nanoTime}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TimerBenchmark {

    @Benchmark
    public long nanoTimeCost() {
        return System.nanoTime();
    }

    @Benchmark
    public long currentTimeMillisCost() {
        return System.currentTimeMillis();
    }

    @Benchmark
    public long nanoTimeGranularity() {
        long t0 = System.nanoTime();
        long t;
        while ((t = System.nanoTime()) == t0) {
            Thread.onSpinWait();
        }
        return t;
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public long currentTimeMillisGranularity() {
        long t0 = System.currentTimeMillis();
        long t;
        while ((t = System.currentTimeMillis()) == t0) {
            Thread.onSpinWait();
        }
        return t;
    }
}
