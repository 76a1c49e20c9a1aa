package io.xdlink.rails;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The block's state word between the rail that arms it and a host's reader outside Java: who may write what when,
 * and that Java never goes on while a read is under way.
 */
class ParkedReadTest {
    private static final VarHandle INT = JAVA_INT.varHandle();
    private static final VarHandle LONG = JAVA_LONG.varHandle();
    private static final long FAR = System.nanoTime() + TimeUnit.HOURS.toNanos(1);
    private final Object rail = new Object();

    /** What a reader does once its read brought {@code n} bytes (or -1): filled, for the rail to take. */
    private static void filled(ParkedRead park, long n) {
        assertThat(INT.compareAndSet(park.block(), ParkedRead.STATE, ParkedRead.ARMED, ParkedRead.BUSY)).isTrue();
        LONG.setRelease(park.block(), ParkedRead.FILLED_BYTES, n);
        INT.setVolatile(park.block(), ParkedRead.STATE, ParkedRead.FILLED);
    }

    @Test
    void theWaitAfterIsInTheBlockForTheReaderBeforeAnyArming() {
        ParkedRead waits = new ParkedRead(300_000);
        assertThat((long) LONG.getAcquire(waits.block(), ParkedRead.WAIT_AFTER)).isEqualTo(300_000);
        assertThat(waits.waitAfterNanos()).isEqualTo(300_000);
        assertThat(waits.arm(rail, 5, 4096, 10, FAR)).isTrue();
        assertThat((long) LONG.getAcquire(waits.block(), ParkedRead.WAIT_AFTER)).as("arming leaves it")
                .isEqualTo(300_000);
        assertThat(new ParkedRead().waitAfterNanos()).as("a block whose readers never wait").isZero();
        assertThatThrownBy(() -> new ParkedRead(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
    }

    @Test
    void armingWritesEveryWordTheReaderReadsAndOnlyFromIdle() {
        ParkedRead park = new ParkedRead();
        assertThat(park.address() % 64).as("one cache line of its own").isZero();
        assertThat(park.arm(rail, 5, 4096, 0, FAR)).as("no room").isFalse();
        assertThat(park.arm(rail, -1, 4096, 10, FAR)).as("no descriptor").isFalse();
        assertThat(park.state()).isEqualTo(ParkedRead.IDLE);
        assertThat(park.arm(rail, 5, 4096, 10, FAR)).isTrue();
        MemorySegment b = park.block();
        assertThat((int) INT.get(b, ParkedRead.DESCRIPTOR)).isEqualTo(5);
        assertThat((long) LONG.get(b, ParkedRead.ADDRESS)).isEqualTo(4096);
        assertThat((long) LONG.get(b, ParkedRead.ROOM)).isEqualTo(10);
        assertThat((long) LONG.get(b, ParkedRead.DEADLINE)).isEqualTo(FAR);
        assertThat(park.arm(rail, 6, 8192, 20, FAR)).as("already armed").isFalse();
        assertThat((int) INT.get(b, ParkedRead.DESCRIPTOR)).isEqualTo(5);
    }

    @Test
    void aWatchWritesItsSocketsAndDeadlineBetweenTwoEvenVersionsAndLeavesTheParkedReadAlone() {
        ParkedRead park = new ParkedRead(300_000);
        MemorySegment b = park.block();
        assertThat(park.address() % 64).isZero();
        assertThat(ParkedRead.WATCH_VERSION % 64).as("the watch has a cache line of its own").isZero();
        assertThat(park.watching()).isFalse();
        assertThat(park.arm(rail, 5, 4096, 10, FAR)).isTrue();
        park.watch(new int[] {7, 9, 11}, 2, FAR);
        assertThat(park.watching()).isTrue();
        assertThat((long) LONG.get(b, ParkedRead.WATCH_VERSION)).isEqualTo(2);
        assertThat((long) LONG.get(b, ParkedRead.WATCH_DEADLINE)).isEqualTo(FAR);
        assertThat((int) INT.get(b, ParkedRead.WATCH_COUNT)).isEqualTo(2);
        assertThat((int) INT.get(b, ParkedRead.WATCH_DESCRIPTORS)).isEqualTo(7);
        assertThat((int) INT.get(b, ParkedRead.WATCH_DESCRIPTORS + 4)).isEqualTo(9);
        assertThat(park.state()).as("the parked read is another matter").isEqualTo(ParkedRead.ARMED);
        assertThat((int) INT.get(b, ParkedRead.DESCRIPTOR)).isEqualTo(5);

        park.unwatch();
        assertThat(park.watching()).isFalse();
        assertThat((long) LONG.get(b, ParkedRead.WATCH_VERSION)).isEqualTo(4);
        assertThat((int) INT.get(b, ParkedRead.WATCH_COUNT)).isZero();
        park.unwatch();
        assertThat((long) LONG.get(b, ParkedRead.WATCH_VERSION)).as("nothing to take back: no write").isEqualTo(4);
        int[] eight = {1, 2, 3, 4, 5, 6, 7, 8};
        park.watch(eight, ParkedRead.WATCH_FDS, FAR);
        assertThat((int) INT.get(b, ParkedRead.WATCH_DESCRIPTORS + 4L * 7)).isEqualTo(8);
        assertThat((long) LONG.get(b, ParkedRead.WATCH_VERSION)).isEqualTo(6);
    }

    @Test
    void aWatchOfNoSocketsTooManyOrANegativeDescriptorIsRefusedAndLeavesTheOldOne() {
        ParkedRead park = new ParkedRead(300_000);
        park.watch(new int[] {3, 4}, 2, FAR);
        assertThatThrownBy(() -> park.watch(new int[0], 0, FAR)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a watch names 1 to 8 sockets, not 0");
        assertThatThrownBy(() -> park.watch(new int[9], 9, FAR)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a watch names 1 to 8 sockets, not 9");
        assertThatThrownBy(() -> park.watch(new int[2], 3, FAR)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a watch names 1 to 8 sockets, not 3");
        assertThatThrownBy(() -> park.watch(new int[] {3, -1}, 2, FAR)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a watch cannot name descriptor -1");
        assertThat((int) INT.get(park.block(), ParkedRead.WATCH_COUNT)).isEqualTo(2);
        assertThat((long) LONG.get(park.block(), ParkedRead.WATCH_VERSION)).isEqualTo(2);
    }

    @Test
    @Timeout(60)
    void aWriterWaitsOutAnotherWritersOddVersion() throws Exception {
        ParkedRead park = new ParkedRead(300_000);
        park.watch(new int[] {3, 4}, 2, FAR);
        MemorySegment b = park.block();
        LONG.setVolatile(b, ParkedRead.WATCH_VERSION, 3L); // another writer is under way
        Thread other = Thread.ofPlatform().start(park::unwatch);
        other.join(200);
        assertThat(other.isAlive()).as("the second writer waits").isTrue();
        assertThat(park.watching()).isTrue();
        LONG.setVolatile(b, ParkedRead.WATCH_VERSION, 4L);
        other.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(other.isAlive()).isFalse();
        assertThat(park.watching()).isFalse();
        assertThat((long) LONG.get(b, ParkedRead.WATCH_VERSION)).isEqualTo(6);
    }

    @Test
    void aClaimTakesWhatTheReaderBroughtOnceAndLeavesAnotherRailsBlockAlone() {
        ParkedRead park = new ParkedRead();
        Object other = new Object();
        assertThat(park.claim(rail)).as("never armed").isEqualTo(ParkedRead.NOTHING);
        park.arm(rail, 5, 4096, 100, FAR);
        filled(park, 42);
        assertThat(park.claim(other)).isEqualTo(ParkedRead.NOTHING);
        assertThat(park.state()).isEqualTo(ParkedRead.FILLED);
        assertThat(park.claim(rail)).isEqualTo(42);
        assertThat(park.state()).isEqualTo(ParkedRead.IDLE);
        assertThat(park.claim(rail)).isEqualTo(ParkedRead.NOTHING);
        park.arm(rail, 5, 4096, 100, FAR);
        filled(park, -1);
        assertThat(park.claim(rail)).as("a read that failed").isEqualTo(ParkedRead.FAILED);
        park.arm(rail, 5, 4096, 100, FAR);
        assertThat(park.claim(rail)).as("armed, nothing read").isEqualTo(ParkedRead.NOTHING);
        assertThat(park.state()).isEqualTo(ParkedRead.IDLE);
    }

    @Test
    void aRevokeLeavesBytesForTheRailAndADropForgetsThem() {
        ParkedRead park = new ParkedRead();
        park.arm(rail, 5, 4096, 100, FAR);
        park.revoke();
        assertThat(park.state()).isEqualTo(ParkedRead.IDLE);
        park.arm(rail, 5, 4096, 100, FAR);
        filled(park, 7);
        park.revoke();
        assertThat(park.state()).isEqualTo(ParkedRead.FILLED);
        park.drop(new Object());
        assertThat(park.state()).as("another rail's drop").isEqualTo(ParkedRead.FILLED);
        park.drop(rail);
        assertThat(park.state()).isEqualTo(ParkedRead.IDLE);
        assertThat(park.claim(rail)).isEqualTo(ParkedRead.NOTHING);
    }

    @Test
    @Timeout(30)
    void claimsRevokesAndDropsWaitForAReadUnderWay() throws Exception {
        for (int kind = 0; kind < 3; kind++) {
            ParkedRead park = new ParkedRead();
            park.arm(rail, 5, 4096, 100, FAR);
            assertThat(INT.compareAndSet(park.block(), ParkedRead.STATE, ParkedRead.ARMED, ParkedRead.BUSY)).isTrue();
            AtomicBoolean readOver = new AtomicBoolean();
            CountDownLatch started = new CountDownLatch(1);
            int k = kind;
            int[] claimed = new int[1];
            AtomicBoolean sawReadOver = new AtomicBoolean();
            Thread java = Thread.ofPlatform().start(() -> {
                started.countDown();
                switch (k) {
                    case 0 -> claimed[0] = park.claim(rail);
                    case 1 -> park.revoke();
                    default -> park.drop(rail);
                }
                sawReadOver.set(readOver.get());
            });
            started.await();
            Thread.sleep(50);
            assertThat(java.isAlive()).as("kind %d goes on while the read is under way", k).isTrue();
            LONG.setRelease(park.block(), ParkedRead.FILLED_BYTES, 9L);
            readOver.set(true);
            INT.setVolatile(park.block(), ParkedRead.STATE, ParkedRead.FILLED);
            java.join();
            assertThat(sawReadOver).as("kind %d returned only after the read", k).isTrue();
            switch (k) {
                case 0 -> assertThat(claimed[0]).isEqualTo(9);
                case 1 -> assertThat(park.state()).isEqualTo(ParkedRead.FILLED);
                default -> assertThat(park.state()).isEqualTo(ParkedRead.IDLE);
            }
        }
    }
}
