package org.rubis.format.schema;

import java.util.List;

/**
 * summary.json {@code profile}: the load profile the run followed (docs/WORKLOAD.md, Load profiles).
 */
public record Profile(
        String file,
        String shape,
        String unit,
        String leave,
        double lengthS,
        double peak,
        long sessionsLeft,
        List<ProfilePoint> points,
        double leaveGraceS) {}
