/**
 * {@code xdlink xdomain decode}: reads XDomain control packets and property blocks written as hex dwords (from a
 * trace, a log, a hex dump) and prints them field by field, or as JSON, with the codecs of the xdomain module so the
 * tool and the running code never disagree about a byte.
 */
package io.xdlink.cli.xdomain;
