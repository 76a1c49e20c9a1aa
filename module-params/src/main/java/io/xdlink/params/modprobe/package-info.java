/**
 * modprobe.d files, read the way kmod and the kernel read them: the line reader with its continuations and comments,
 * the commands, the kernel's splitting of {@code name=value} arguments with its quoting, and the search path with
 * kmod's rule for which of two same-named files wins. Nothing here knows any parameter; it only says faithfully what
 * a file asks for, and where, so that the checker, xdlink's own configuration file and {@code xdlink doctor} all
 * read a line the same way the kernel will.
 */
package io.xdlink.params.modprobe;
