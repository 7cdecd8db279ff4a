package org.rubis.analysis;
public final class AnalysisMain { public static void main(String[] a) {} }
