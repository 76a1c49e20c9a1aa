/**
 * xdlink's frame format: what one rail carries, a 16-byte common header, the opcode's own fields, the payload and a
 * 4-byte CRC-32C trailer. A frame on a USB4 ring is at most 4096 bytes (one DMA frame), so a WRITE costs 52 bytes of
 * overhead and carries up to 4044 bytes of message (98.7% of the frame); a rail that is a byte stream (TCP) carries
 * frames of up to 16384 bytes, 16332 of them message. Values are big-endian.
 *
 * <pre>
 * common header (every frame, 16 bytes)
 *   0  u8  version      1
 *   1  u8  opcode       WRITE 0x01, WRITE_WITH_IMM 0x02, SEND 0x03, ACK 0x10, CREDIT 0x11, NAK 0x12, HELLO 0x20,
 *                       CONNECT_REQUEST 0x30, CONNECT_REPLY 0x31, CONNECT_REJECT 0x32, DISCONNECT 0x33
 *   2  u8  flags        0x01 PAYLOAD_UNCHECKED (data: the CRC covers the header only), 0x02 ACK_REQUEST,
 *                       0x04 REPLY (HELLO), 0x08 IMMEDIATE (SEND); other bits are malformed
 *   3  u8  epoch        the rail's epoch, agreed by HELLO; frames of another epoch are stale
 *   4  u32 seq          sequenced frames: the per-rail frame sequence; unsequenced: the sender's unsequenced count
 *   8  u32 credit       credit position: how far the recipient may go in its sequence on this rail
 *  12  u16 echo         low bits of the highest unsequenced count received from the recipient on this rail
 *  14  u16 length       payload bytes after the header
 * data frames (WRITE 48-byte header, WRITE_WITH_IMM 56, SEND 44)
 *  16  u32 qpn          destination queue pair
 *  20  u32 msn          message sequence number within the queue pair
 *  24  u32 psn          packet sequence number: one per frame of the queue pair, never reused for other bytes
 *  28  u32 offset       where this block of bytes goes within the message
 *  32  u32 total        the message's length
 *  WRITE, WRITE_WITH_IMM:  36 u32 rkey, 40 u64 raddr (remote key, remote address of the message's first byte)
 *  WRITE_WITH_IMM:         48 u32 imm, 52 u32 recv index (the posted receive it consumes, counted from the first)
 *  SEND:                   36 u32 recv index, 40 u32 imm
 * ACK payload:  u8 rails, u8 0, u16 qps; per rail (18 bytes) u8 rail, u8 epoch, u32 position, u32 credit,
 *               u64 received map; per queue pair (12 bytes) u32 qpn, u32 completed msn, u32 expected psn
 * CREDIT (20):  16 u32 next seq (the sender's next sequence, so the recipient refunds a lost tail)
 * NAK (28):     16 u32 qpn, 20 u32 msn, 24 u8 reason, 25..27 zero
 * HELLO (40):   16 uuid device, 32 u16 rail number, 34 u16 frame bytes, 36 u32 window (receive ring, frames)
 * CONNECT_REQUEST / CONNECT_REPLY (40): 16 u64 connection id, 24 u32 listener id / requester's qpn, 28 u32 sender's
 *               qpn, 32 u32 max messages in flight, 36 u32 psn window
 * CONNECT_REJECT (28): 16 u64 connection id, 24 u32 reason
 * DISCONNECT (24): 16 u32 destination qpn, 20 u32 source qpn
 * trailer: u32 CRC-32C of every byte before it (data frames with PAYLOAD_UNCHECKED: of the header only)
 * </pre>
 *
 * <p>Credits are positions: every frame's {@code credit} says "you may send up to, not including, this sequence",
 * which is the receiver's position (one past the highest sequence it saw; gaps count as seen, so a lost frame
 * refunds its own credit) plus its ring size. A lost update costs nothing: the next one says the same and more.
 * Data frames stop short of the position by a control reserve, so acknowledgements and NAKs always fit;
 * unsequenced CREDIT and HELLO frames have a budget of a few frames of their own, confirmed by the peer's
 * {@code echo}. Together these can never overrun a receive ring. {@link io.xdlink.rails.frame.FrameView} checks
 * every field a frame carries and names the one that is wrong in a {@link io.xdlink.rails.frame.FrameException};
 * {@link io.xdlink.rails.frame.FrameEncoder} writes frames in place; {@link io.xdlink.rails.frame.Frame} and
 * {@link io.xdlink.rails.frame.FrameCodec} give the same frames as values for tests and tools.
 */
package io.xdlink.rails.frame;
