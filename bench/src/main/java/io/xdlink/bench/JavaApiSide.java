package io.xdlink.bench;

import io.xdlink.ccl.CclContext;
import io.xdlink.ccl.CclException;
import io.xdlink.ccl.CclNet;
import io.xdlink.ccl.DeviceProperties;
import io.xdlink.ccl.ListenComm;
import io.xdlink.ccl.MemoryHandle;
import io.xdlink.ccl.RecvComm;
import io.xdlink.ccl.Request;
import io.xdlink.ccl.SendComm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** A ping-pong side calling {@link CclNet} directly. */
final class JavaApiSide implements PingPongSide {
    private final CclNet net;
    private final SendComm send;
    private final RecvComm recv;
    private final MemorySegment out;
    private final MemorySegment[] in;
    private final MemoryHandle outMh;
    private final MemoryHandle[] inMh;
    private final int[] tags = {0};
    private Request pendingReceive;
    private Request pendingSend;

    private JavaApiSide(CclNet net, SendComm send, RecvComm recv, Arena arena) throws CclException {
        this.net = net;
        this.send = send;
        this.recv = recv;
        this.out = arena.allocate(8, 64);
        this.in = new MemorySegment[] {arena.allocate(8, 64)};
        this.outMh = net.registerMemory(send, out, DeviceProperties.PTR_HOST);
        this.inMh = new MemoryHandle[] {net.registerMemory(recv, in[0], DeviceProperties.PTR_HOST)};
    }

    /** Two sides joined by two connections over device 0. */
    static JavaApiSide[] pair(CclNet net, Arena arena) throws CclException {
        CclContext ctx = net.init(1, -1);
        SendComm[] sends = new SendComm[2];
        RecvComm[] recvs = new RecvComm[2];
        for (int i = 0; i < 2; i++) {
            ListenComm l = net.listen(ctx, 0);
            byte[] handle = l.handle();
            while (sends[i] == null || recvs[i] == null) {
                if (sends[i] == null) {
                    sends[i] = net.connect(ctx, 0, -1, handle);
                }
                if (recvs[i] == null) {
                    recvs[i] = net.accept(l);
                }
            }
            net.closeListen(l);
        }
        return new JavaApiSide[] {new JavaApiSide(net, sends[0], recvs[1], arena),
            new JavaApiSide(net, sends[1], recvs[0], arena)};
    }

    @Override
    public boolean postReceive() throws CclException {
        pendingReceive = net.irecv(recv, in, tags, inMh);
        return pendingReceive != null;
    }

    @Override
    public boolean postSend() throws CclException {
        pendingSend = net.isend(send, out, 0, outMh);
        return pendingSend != null;
    }

    @Override
    public boolean receiveDone() throws CclException {
        return net.test(pendingReceive, null);
    }

    @Override
    public boolean sendDone() throws CclException {
        return net.test(pendingSend, null);
    }

    @Override
    public void close() throws CclException {
        net.deregisterMemory(send, outMh);
        net.deregisterMemory(recv, inMh[0]);
        net.closeSend(send);
        net.closeRecv(recv);
    }
}
