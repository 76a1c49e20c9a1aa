/**
 * The stress pass ({@code ./mvnw -Pstress -pl tests -am verify}): the multi-process and lab tests, tagged
 * {@value io.xdlink.it.stress.StressTest#TAG}, but for those whose every wait another of them makes under the same
 * load (tagged {@value io.xdlink.it.stress.StressTest#NOT_UNDER_LOAD}), run again and again with busy loops burning
 * processors beside them, because the failures those tests exist to catch (a slow peer taken for a dead one, a wait
 * sized by a retry count) appear when processors are scarce. Off by default; CI runs a short pass.
 */
package io.xdlink.it.stress;
