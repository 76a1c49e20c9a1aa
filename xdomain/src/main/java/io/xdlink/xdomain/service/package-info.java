/**
 * XDomain services: the local registry whose directories a host publishes in its property block (with the
 * generation counter peers watch), the services a peer's block describes ({@code <peer>.<id>} with Linux's match
 * rules and modalias), the protocol handlers that receive a service's own control packets by protocol UUID, and
 * the two services xdlink knows by heart: thunderbolt-net's {@code network} and xdlink's own {@code xdlink}.
 */
package io.xdlink.xdomain.service;
