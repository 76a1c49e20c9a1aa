/**
 * {@code xdlink params}: every parameter xdlink has, with its effective value and where that came from; the
 * documented table of docs/parameters.md ({@code --markdown}); and {@code xdlink params check}, which reads modprobe
 * option lines as the kernel will and reports every name it would silently ignore. The knowledge lives
 * in module-params; this package only prints it.
 */
package io.xdlink.cli.params;
