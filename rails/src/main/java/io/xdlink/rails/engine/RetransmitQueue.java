package io.xdlink.rails.engine;

/**
 * Frames to send again, first in first out, as the bytes they carried (queue pair, message, packet sequence,
 * offset, length) rather than the frames: any rail of the pool rebuilds them under a new sequence. Arrays that grow
 * to the most ever queued, never per frame.
 */
final class RetransmitQueue {
    private int[] qpn = new int[64];
    private int[] msn = new int[64];
    private int[] psn = new int[64];
    private long[] offset = new long[64];
    private int[] length = new int[64];
    private boolean[] ackRequest = new boolean[64];
    private int head;
    private int size;

    void add(int q, int m, int p, long off, int len, boolean request) {
        if (size == qpn.length) {
            grow();
        }
        int i = (head + size) & (qpn.length - 1);
        qpn[i] = q;
        msn[i] = m;
        psn[i] = p;
        offset[i] = off;
        length[i] = len;
        ackRequest[i] = request;
        size++;
    }

    private void grow() {
        int n = qpn.length * 2;
        int[] q2 = new int[n];
        int[] m2 = new int[n];
        int[] p2 = new int[n];
        long[] o2 = new long[n];
        int[] l2 = new int[n];
        boolean[] a2 = new boolean[n];
        for (int k = 0; k < size; k++) {
            int i = (head + k) & (qpn.length - 1);
            q2[k] = qpn[i];
            m2[k] = msn[i];
            p2[k] = psn[i];
            o2[k] = offset[i];
            l2[k] = length[i];
            a2[k] = ackRequest[i];
        }
        qpn = q2;
        msn = m2;
        psn = p2;
        offset = o2;
        length = l2;
        ackRequest = a2;
        head = 0;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    int qpn() {
        return qpn[head];
    }

    int msn() {
        return msn[head];
    }

    int psn() {
        return psn[head];
    }

    long offset() {
        return offset[head];
    }

    int length() {
        return length[head];
    }

    boolean ackRequest() {
        return ackRequest[head];
    }

    void pop() {
        head = (head + 1) & (qpn.length - 1);
        size--;
    }

    void clear() {
        head = 0;
        size = 0;
    }
}
