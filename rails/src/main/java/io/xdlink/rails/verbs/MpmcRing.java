package io.xdlink.rails.verbs;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A bounded lock-free queue for any number of producers and consumers (each slot carries a sequence number that
 * says whose turn it is). Completion queues use it: the engine produces, any thread polls.
 */
final class MpmcRing<E> {
    private final Object[] buffer;
    private final AtomicLongArray sequence;
    private final int mask;
    private final AtomicLong enqueue = new AtomicLong();
    private final AtomicLong dequeue = new AtomicLong();

    MpmcRing(int capacity) {
        int size = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
        buffer = new Object[size];
        sequence = new AtomicLongArray(size);
        for (int i = 0; i < size; i++) {
            sequence.set(i, i);
        }
        mask = size - 1;
    }

    int capacity() {
        return buffer.length;
    }

    boolean offer(E e) {
        long pos = enqueue.get();
        int idx;
        while (true) {
            idx = (int) (pos & mask);
            long dif = sequence.getAcquire(idx) - pos;
            if (dif == 0) {
                if (enqueue.compareAndSet(pos, pos + 1)) {
                    break;
                }
                pos = enqueue.get();
            } else if (dif < 0) {
                return false;
            } else {
                pos = enqueue.get();
            }
        }
        buffer[idx] = e;
        sequence.setRelease(idx, pos + 1);
        return true;
    }

    @SuppressWarnings("unchecked")
    E poll() {
        long pos = dequeue.get();
        int idx;
        while (true) {
            idx = (int) (pos & mask);
            long dif = sequence.getAcquire(idx) - (pos + 1);
            if (dif == 0) {
                if (dequeue.compareAndSet(pos, pos + 1)) {
                    break;
                }
                pos = dequeue.get();
            } else if (dif < 0) {
                return null;
            } else {
                pos = dequeue.get();
            }
        }
        E e = (E) buffer[idx];
        buffer[idx] = null;
        sequence.setRelease(idx, pos + mask + 1);
        return e;
    }

    /** Items now queued; exact only when nobody is offering or polling. */
    int size() {
        return (int) Math.max(0, enqueue.get() - dequeue.get());
    }
}
