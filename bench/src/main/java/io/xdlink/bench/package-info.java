/**
 * JMH microbenchmarks. Every target is a ratio measured side by side in one run (xdlink against a plain baseline of
 * the same bytes), because the machines they run on are shared and noisy.
 */
package io.xdlink.bench;
