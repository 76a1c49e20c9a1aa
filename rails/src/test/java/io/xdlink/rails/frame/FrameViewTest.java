package io.xdlink.rails.frame;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Leaving out the CRC check, for a transport that delivers frames intact, leaves out that check and no other. */
class FrameViewTest {
    private static final Frame.Header HEADER = new Frame.Header(FrameFlags.PAYLOAD_UNCHECKED, 9, 77, 1101, 3);

    private static MemorySegment write(byte[] payload) {
        Frame f = new Frame.Write(HEADER, 5, 2, 40, 8192, 65536, 0x1234_5678, 0x7000_0000L, payload);
        return MemorySegment.ofArray(FrameCodec.encode(f));
    }

    private static void flip(MemorySegment s, long at) {
        s.set(ValueLayout.JAVA_BYTE, at, (byte) (s.get(ValueLayout.JAVA_BYTE, at) ^ 0x10));
    }

    @Test
    void aDamagedCrcIsRefusedWhenCheckedAndReadWhenNot() throws FrameException {
        MemorySegment frame = write(new byte[100]);
        flip(frame, frame.byteSize() - 1);
        FrameView v = new FrameView();
        assertThatThrownBy(() -> v.wrap(frame)).isInstanceOf(FrameException.class)
                .satisfies(e -> assertThat(((FrameException) e).field()).isEqualTo(FrameField.CRC));
        v.wrap(frame, 0, frame.byteSize(), false);
        assertThat(v.opcode()).isEqualTo(Opcode.WRITE);
        assertThat(v.seq()).isEqualTo(77);
        assertThat(v.psn()).isEqualTo(40);
        assertThat(v.offset()).isEqualTo(8192);
        assertThat(v.raddr()).isEqualTo(0x7000_0000L);
        assertThat(v.payloadLength()).isEqualTo(100);
    }

    @Test
    void withoutTheCrcEveryOtherFieldIsStillChecked() {
        FrameView v = new FrameView();
        MemorySegment badVersion = write(new byte[10]);
        flip(badVersion, FrameLayout.OFF_VERSION);
        assertThatThrownBy(() -> v.wrap(badVersion, 0, badVersion.byteSize(), false))
                .isInstanceOf(FrameException.class)
                .satisfies(e -> assertThat(((FrameException) e).field()).isEqualTo(FrameField.VERSION));
        MemorySegment badQpn = write(new byte[10]);
        badQpn.set(FrameLayout.U32, FrameLayout.OFF_QPN, 0);
        assertThatThrownBy(() -> v.wrap(badQpn, 0, badQpn.byteSize(), false))
                .isInstanceOf(FrameException.class)
                .satisfies(e -> assertThat(((FrameException) e).field()).isEqualTo(FrameField.QPN));
        MemorySegment overrun = write(new byte[10]);
        overrun.set(FrameLayout.U32, FrameLayout.OFF_TOTAL, 8195);
        assertThatThrownBy(() -> v.wrap(overrun, 0, overrun.byteSize(), false))
                .isInstanceOf(FrameException.class)
                .satisfies(e -> assertThat(((FrameException) e).field()).isEqualTo(FrameField.OFFSET));
    }

    @Test
    void aFrameInTwoPartsSkipsOnlyItsCrcToo() throws FrameException {
        MemorySegment whole = write(new byte[64]);
        int headerBytes = Opcode.WRITE.headerBytes();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment head = arena.allocate(headerBytes + FrameLayout.TRAILER_BYTES);
            MemorySegment.copy(whole, 0, head, 0, headerBytes);
            MemorySegment.copy(whole, whole.byteSize() - FrameLayout.TRAILER_BYTES, head, headerBytes,
                    FrameLayout.TRAILER_BYTES);
            MemorySegment payload = whole.asSlice(headerBytes, 64);
            FrameView v = new FrameView();
            v.wrap(head, 0, (int) head.byteSize(), payload, 0, 64);
            flip(head, headerBytes);
            assertThatThrownBy(() -> v.wrap(head, 0, (int) head.byteSize(), payload, 0, 64))
                    .isInstanceOf(FrameException.class);
            v.wrap(head, 0, (int) head.byteSize(), payload, 0, 64, false);
            assertThat(v.msn()).isEqualTo(2);
            head.set(FrameLayout.U64, FrameLayout.OFF_CREDIT, 63); // length 63 against a 64-byte payload
            assertThatThrownBy(() -> v.wrap(head, 0, (int) head.byteSize(), payload, 0, 64, false))
                    .isInstanceOf(FrameException.class)
                    .satisfies(e -> assertThat(((FrameException) e).field()).isEqualTo(FrameField.LENGTH));
        }
    }

    /**
     * A head whose payload has not arrived is checked as a whole frame is, but for the CRC: truncated, hostile and
     * malformed heads are refused naming the field, and nothing but a data frame's head is taken.
     */
    @Test
    void aHeadAheadOfItsPayloadIsCheckedAsTheWholeFrameWouldBeButForItsCrc() throws FrameException {
        MemorySegment whole = write(new byte[64]);
        int headerBytes = Opcode.WRITE.headerBytes();
        int headBytes = headerBytes + FrameLayout.TRAILER_BYTES;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment head = arena.allocate(headBytes);
            MemorySegment.copy(whole, 0, head, 0, headerBytes);
            FrameView v = new FrameView();
            v.wrapHead(head, 0, headBytes, 64);
            assertThat(v.opcode()).isEqualTo(Opcode.WRITE);
            assertThat(v.msn()).isEqualTo(2);
            assertThat(v.offset()).isEqualTo(8192);
            assertThat(v.total()).isEqualTo(65536);
            assertThat(v.rkey()).isEqualTo(0x1234_5678);
            assertThat(v.payloadLength()).isEqualTo(64);
            assertThat(v.payloadSegment()).isNull();

            assertRefused(() -> v.wrapHead(head, 0, headBytes, 63), FrameField.LENGTH);
            assertRefused(() -> v.wrapHead(head, 0, headBytes, -1), FrameField.LENGTH);
            assertRefused(() -> v.wrapHead(head, 0, headBytes - 1, 64), FrameField.FRAME);
            assertRefused(() -> v.wrapHead(head, 1, headBytes, 64), FrameField.FRAME);
            assertRefused(() -> v.wrapHead(head, -1, headBytes, 64), FrameField.FRAME);
            assertRefused(() -> v.wrapHead(head, 0, 12, 64), FrameField.FRAME);
            assertRefused(() -> v.wrapHead(head, 0, headBytes, FrameLayout.MAX_STREAM_FRAME_BYTES), FrameField.FRAME);
            MemorySegment overrun = arena.allocate(headBytes);
            MemorySegment.copy(head, 0, overrun, 0, headBytes);
            overrun.set(FrameLayout.U32, FrameLayout.OFF_TOTAL, 8195);
            assertRefused(() -> v.wrapHead(overrun, 0, headBytes, 64), FrameField.OFFSET);
            MemorySegment badVersion = arena.allocate(headBytes);
            MemorySegment.copy(head, 0, badVersion, 0, headBytes);
            flip(badVersion, FrameLayout.OFF_VERSION);
            assertRefused(() -> v.wrapHead(badVersion, 0, headBytes, 64), FrameField.VERSION);

            // A control frame's head is no data frame's: refused, whatever its payload length says.
            Frame.Credit control = new Frame.Credit(new Frame.Header(0, 9, 78, 1101, 3), 79);
            MemorySegment credit = MemorySegment.ofArray(FrameCodec.encode(control));
            assertRefused(() -> v.wrapHead(credit, 0, (int) credit.byteSize(), 0), FrameField.OPCODE);
            assertThat(v.frame()).isNull();
        }
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, FrameField field) {
        assertThatThrownBy(call).isInstanceOf(FrameException.class)
                .satisfies(e -> assertThat(((FrameException) e).field()).isEqualTo(field));
    }
}
