package io.xdlink.xdomain.sysfs;

/**
 * What {@link LinkDiagnosis} concluded about one peer's link or services.
 *
 * @param peer    the XDomain device ({@code 0-1})
 * @param aspect  what was judged: {@code link}, {@code network} (thunderbolt-net's service) or {@code xdlink}
 * @param warning whether the user should act
 * @param summary one line: what was seen
 * @param fix     one line: what to do; empty when nothing needs doing
 */
public record LinkFinding(String peer, String aspect, boolean warning, String summary, String fix) {
}
