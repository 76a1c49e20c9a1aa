package io.xdlink.cli.xdomain;

import java.util.List;
import java.util.Map;

/**
 * What decoding found, in both forms the command prints.
 *
 * @param lines text lines for people
 * @param json  the same facts as JSON values
 * @param valid false when the input breaks a rule (bad CRC, bad field); the command then exits 1
 */
record Report(List<String> lines, Map<String, Object> json, boolean valid) {
}
