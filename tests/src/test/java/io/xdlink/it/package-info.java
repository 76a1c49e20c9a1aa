/**
 * Cross-module tests: the loopback suite, the transport conformance suite run against every rail transport, the
 * native plugin harness, and the two-host lab test in network namespaces.
 */
package io.xdlink.it;
