/**
 * XDomain control packets on the wire: the CRC-32C framing of ring 0, the header every XDomain protocol shares
 * (route, length and sequence number, protocol UUID), and the XDomain discovery protocol (XDP) messages as one
 * record per message type behind the sealed {@link io.xdlink.xdomain.packet.XdpMessage}. The codec reproduces the
 * byte order Linux produces by building host-order u32 arrays on little-endian x86 and swapping every word: u32
 * fields are big-endian, u8/u16 sub-fields keep their little-endian position inside a word, UUIDs appear with each
 * 4-byte group reversed. Everything here is pure and stateless so the simulator, the TCP control channel and the
 * trace decoder share one implementation.
 */
package io.xdlink.xdomain.packet;
