/**
 * XDomain property blocks: the directory tree a host publishes about itself (vendor, device name, maximum HopID)
 * and its services, one sub-directory each. {@link io.xdlink.xdomain.property.PropertyBlock} parses a block of
 * dwords into {@link io.xdlink.xdomain.property.PropertyDirectory} trees and formats trees into blocks laid out
 * exactly as Linux lays them out, so a peer running Linux and a peer running xdlink exchange identical bytes.
 */
package io.xdlink.xdomain.property;
