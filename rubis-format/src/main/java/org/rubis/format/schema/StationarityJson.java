package org.rubis.format.schema;

import java.util.List;
import org.rubis.format.stats.Stationarity.Judgement;

/**
 * summary.json {@code stationarity} (and an interval's): the verdict on the run phase and the figures it rests on.
 */
public record StationarityJson(
        boolean steady,
        Judgement verdict,
        double littleRatio,
        double littleRatioSe,
        double littleLow,
        double littleHigh,
        double meanThinkS,
        long thinkCount,
        double thinkMeanS,
        double thinkMeanSquareS2,
        double thinkMeanCubeS3,
        double windowS,
        double trendRpsPerS,
        double trendCi99Low,
        double trendCi99High,
        double firstHalfRps,
        double secondHalfRps,
        long windows,
        String rampMode,
        String text,
        String notJudgedReason,
        String judgedBy,
        String judgedOn,
        List<StationarityJson> shards) {}
