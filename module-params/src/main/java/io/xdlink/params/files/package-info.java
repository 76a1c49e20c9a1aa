/**
 * Reading a file a user named (a configuration file, a result file, a file under a host root) without trusting it:
 * a FIFO would block the reader forever, a device like {@code /dev/zero} never ends, and a huge file would fill the
 * heap, so only a regular file of bounded size is read, and anything else is refused with one line saying what it
 * is.
 */
package io.xdlink.params.files;
