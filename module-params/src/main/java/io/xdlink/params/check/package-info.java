/**
 * Checking modprobe option lines before the kernel silently drops part of them: what we know of the foreign USB4
 * drivers our users run (the names their code declares and the documented names it does not), and the checker that
 * reports, as {@link io.xdlink.params.check.Finding} values, every name the kernel would ignore, every bad value for
 * xdlink, and every setting that a later one overrides. {@code xdlink params check} prints the findings;
 * {@code xdlink doctor} turns them into checks.
 */
package io.xdlink.params.check;
