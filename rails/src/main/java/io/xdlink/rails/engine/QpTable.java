package io.xdlink.rails.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * Queue pair number to queue pair. A number is a slot index (low 16 bits) and the slot's generation (bits 16..23),
 * so lookup is one array read and a number is not reused until its slot has gone through 255 other queue pairs.
 * Slots are taken on any thread under a lock; the engine reads without one, after the command that announced the
 * queue pair (the command queue orders the two).
 */
final class QpTable {
    static final int MAX_QPS = 1 << 16;

    private volatile QpCore[] slots = new QpCore[64];
    private int[] generation = new int[64];
    private final ArrayDeque<Integer> free = new ArrayDeque<>();
    private int used;
    private final int generationBase;

    QpTable(int generationBase) {
        this.generationBase = generationBase;
    }

    /** Reserves a number; the queue pair is made by {@code factory} with it. */
    synchronized QpCore allocate(IntFunction<QpCore> factory) {
        int index;
        if (!free.isEmpty()) {
            index = free.poll();
        } else {
            if (used == MAX_QPS) {
                throw new IllegalStateException("a device has at most " + MAX_QPS + " queue pairs");
            }
            index = used++;
            if (index == slots.length) {
                QpCore[] s = Arrays.copyOf(slots, slots.length * 2);
                generation = Arrays.copyOf(generation, s.length);
                slots = s;
            }
        }
        int gen = (generationBase + generation[index]++) % 255 + 1;
        int qpn = gen << 16 | index;
        QpCore qp = factory.apply(qpn);
        QpCore[] s = slots;
        s[index] = qp;
        slots = s;
        return qp;
    }

    QpCore get(int qpn) {
        int index = qpn & 0xFFFF;
        QpCore[] s = slots;
        if (index >= s.length) {
            return null;
        }
        QpCore qp = s[index];
        return qp != null && qp.qpn() == qpn ? qp : null;
    }

    synchronized void release(QpCore qp) {
        int index = qp.qpn() & 0xFFFF;
        QpCore[] s = slots;
        if (index < s.length && s[index] == qp) {
            s[index] = null;
            slots = s;
            free.add(index);
        }
    }

    synchronized List<QpCore> all() {
        List<QpCore> out = new ArrayList<>();
        for (QpCore qp : slots) {
            if (qp != null) {
                out.add(qp);
            }
        }
        return out;
    }
}
