/**
 * The {@code xdlink} command: {@code bench}, {@code doctor}, {@code topology}, {@code params} and
 * {@code xdomain decode}, built with picocli. Commands print one clear line and exit non-zero on bad input; no stack
 * trace reaches a user.
 */
package io.xdlink.cli;
