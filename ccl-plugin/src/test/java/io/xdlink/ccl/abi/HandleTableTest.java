package io.xdlink.ccl.abi;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

class HandleTableTest {

    @Test
    void idsAreNeverNullOrTheOptionalCompletionMarkerAndFindTheirValue() {
        HandleTable t = new HandleTable();
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            long id = t.add(HandleTable.Kind.REQUEST, i);
            assertThat(id).isNotIn(0L, 1L);
            assertThat(ids.add(id)).isTrue();
            assertThat(t.get(id, HandleTable.Kind.REQUEST)).isEqualTo(i);
        }
    }

    @Test
    void staleWrongKindAndGarbageIdsFindNothing() {
        HandleTable t = new HandleTable();
        long id = t.add(HandleTable.Kind.SEND, "send");
        assertThat(t.get(id, HandleTable.Kind.RECV)).isNull();
        assertThat(t.remove(id, HandleTable.Kind.SEND)).isEqualTo("send");
        assertThat(t.get(id, HandleTable.Kind.SEND)).as("removed").isNull();
        long reused = t.add(HandleTable.Kind.SEND, "again");
        assertThat(reused).isNotEqualTo(id);
        assertThat(t.get(id, HandleTable.Kind.SEND)).as("stale id of a reused slot").isNull();
        assertThat(t.get(reused, HandleTable.Kind.SEND)).isEqualTo("again");
        for (long garbage : new long[] {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0x7fff_1234_5678L, 8 | 3}) {
            assertThat(t.get(garbage, HandleTable.Kind.SEND)).isNull();
            assertThat(t.remove(garbage, HandleTable.Kind.SEND)).isNull();
        }
    }

    private static long index(long id) {
        return (id >>> 3) & 0x1FFF_FFFFL;
    }

    @Test
    void aBlockHandsOutItsOwnAlignedRunOfIdsAndTakesThemBack() {
        HandleTable t = new HandleTable();
        long shared = t.add(HandleTable.Kind.SEND, "comm");
        HandleTable.Block a = t.block();
        HandleTable.Block b = t.block();
        Set<Long> indicesA = new HashSet<>();
        Set<Long> indicesB = new HashSet<>();
        List<Long> idsA = new ArrayList<>();
        for (int i = 0; i < HandleTable.Block.SLOTS; i++) {
            long id = t.add(a, HandleTable.Kind.REQUEST, "a" + i);
            idsA.add(id);
            indicesA.add(index(id));
            indicesB.add(index(t.add(b, HandleTable.Kind.REQUEST, "b" + i)));
            assertThat(t.get(id, HandleTable.Kind.REQUEST)).isEqualTo("a" + i);
        }
        assertThat(a.live()).isEqualTo(HandleTable.Block.SLOTS);
        // Each block is one aligned run of its own: no id of another block or of the shared slots within it.
        long baseA = index(idsA.getFirst());
        assertThat(baseA % HandleTable.Block.SLOTS).isZero();
        assertThat(indicesA).hasSize(HandleTable.Block.SLOTS).allMatch(i -> i >= baseA && i < baseA + 64);
        assertThat(indicesB).doesNotContainAnyElementsOf(indicesA).doesNotContain(index(shared));
        // Full: the next id comes from the shared slots, and goes back there.
        long overflow = t.add(a, HandleTable.Kind.REQUEST, "overflow");
        assertThat(indicesA).doesNotContain(index(overflow));
        assertThat(t.remove(overflow, HandleTable.Kind.REQUEST)).isEqualTo("overflow");
        // A removed id is stale at once; its slot comes back to its block under a new id.
        long first = idsA.getFirst();
        assertThat(t.remove(first, HandleTable.Kind.REQUEST)).isEqualTo("a0");
        assertThat(t.remove(first, HandleTable.Kind.REQUEST)).as("removed twice").isNull();
        assertThat(a.live()).isEqualTo(HandleTable.Block.SLOTS - 1);
        long again = t.add(a, HandleTable.Kind.REQUEST, "again");
        assertThat(index(again)).isEqualTo(index(first));
        assertThat(again).isNotEqualTo(first);
        assertThat(t.get(first, HandleTable.Kind.REQUEST)).as("stale id of a reused block slot").isNull();
        assertThat(t.get(again, HandleTable.Kind.SEND)).as("wrong kind").isNull();
        assertThat(t.remove(again, HandleTable.Kind.SEND)).as("wrong kind").isNull();
    }

    @Test
    void aClosedBlocksIdsStayLiveUntilRemovedThenItsSlotsAreSharedUnderNewIds() {
        HandleTable t = new HandleTable();
        HandleTable.Block block = t.block();
        long kept = t.add(block, HandleTable.Kind.REQUEST, "tested after close");
        long done = t.add(block, HandleTable.Kind.REQUEST, "done");
        assertThat(t.remove(done, HandleTable.Kind.REQUEST)).isEqualTo("done");
        t.close(block);
        assertThat(t.get(kept, HandleTable.Kind.REQUEST)).as("a host may test after closing").isEqualTo("tested after close");
        long afterClose = t.add(block, HandleTable.Kind.REQUEST, "late");
        assertThat(index(afterClose)).as("a closed block hands out nothing").isNotEqualTo(index(kept));
        assertThat(t.remove(kept, HandleTable.Kind.REQUEST)).isEqualTo("tested after close");
        assertThat(block.live()).isZero();
        // The block's slots are back among the shared ones: reused, never under an id handed out before.
        Set<Long> old = Set.of(kept, done);
        boolean reusedAnIndex = false;
        for (int i = 0; i < 2 * HandleTable.Block.SLOTS; i++) {
            long id = t.add(HandleTable.Kind.REQUEST, i);
            assertThat(id).isNotIn(old);
            reusedAnIndex |= index(id) == index(kept) || index(id) == index(done);
        }
        assertThat(reusedAnIndex).isTrue();
        assertThat(t.get(kept, HandleTable.Kind.REQUEST)).isNull();
        assertThat(t.get(done, HandleTable.Kind.REQUEST)).isNull();
    }

    @Test
    void threadsOnBlocksOfTheirOwnAndOnTheSharedSlotsNeverHandOutAnIdTwice() throws Exception {
        long seed = Long.getLong("xdlink.test.seed", System.nanoTime());
        HandleTable t = new HandleTable();
        Set<Long> everLive = ConcurrentHashMap.newKeySet();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int n = 0; n < 4; n++) {
            SplittableRandom random = new SplittableRandom(seed + n);
            HandleTable.Block block = n < 3 ? t.block() : null;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    List<Long> live = new ArrayList<>();
                    for (int i = 0; i < 20_000; i++) {
                        if (live.isEmpty() || (live.size() < 80 && random.nextBoolean())) {
                            Object value = Long.valueOf(i);
                            long id = block == null ? t.add(HandleTable.Kind.REQUEST, value)
                                    : t.add(block, HandleTable.Kind.REQUEST, value);
                            assertThat(everLive.add(id)).as("id 0x%x handed out twice", id).isTrue();
                            assertThat(t.get(id, HandleTable.Kind.REQUEST)).isSameAs(value);
                            live.add(id);
                        } else {
                            long id = live.remove(random.nextInt(live.size()));
                            assertThat(t.remove(id, HandleTable.Kind.REQUEST)).isNotNull();
                            assertThat(t.get(id, HandleTable.Kind.REQUEST)).isNull();
                        }
                    }
                    if (block != null) {
                        t.close(block);
                    }
                    for (long id : live) {
                        assertThat(t.remove(id, HandleTable.Kind.REQUEST)).isNotNull();
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(failures).as("seed %d (rerun with -Dxdlink.test.seed=%d)", seed, seed).isEmpty();
    }
}
