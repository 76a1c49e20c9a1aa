/**
 * The stress pass ({@code ./mvnw -Pstress -pl tests -am verify}): every multi-process and lab test, tagged
 * {@value io.xdlink.it.stress.StressTest#TAG}, run again and again with busy loops burning processors beside
 * them, because the failures those tests exist to catch (a slow peer taken for a dead one, a wait sized by a retry
 * count) appear when processors are scarce. Off by default; CI runs a short pass.
 */
package io.xdlink.it.stress;
