package io.xdlink.it;

import io.xdlink.rails.tcp.IoLoop;
import io.xdlink.rails.tcp.TcpControl;
import io.xdlink.rails.tcp.TcpControlChannel;
import io.xdlink.rails.tcp.TcpListener;
import io.xdlink.rails.tcp.TcpSettings;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The control-channel conformance suite over a real TCP session stream on 127.0.0.1, on a port the OS picks. The
 * stream keeps order and loses nothing, but its send queue is bounded: a flood may lose packets there.
 */
class TcpControlChannelConformanceTest extends ControlChannelConformance {

    @Override
    protected Ends open() throws Exception {
        IoLoop loop = closeLater(new IoLoop("xdlink-control-conformance"));
        CompletableFuture<TcpControlChannel> accepted = new CompletableFuture<>();
        TcpListener listener = closeLater(TcpControl.listen(loop,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), TcpSettings.defaults(),
                accepted::complete));
        TcpControlChannel a = closeLater(TcpControl.connect(loop, null, listener.address(), TcpSettings.defaults())
                .get(PATIENCE.toSeconds(), TimeUnit.SECONDS));
        TcpControlChannel b = closeLater(accepted.get(PATIENCE.toSeconds(), TimeUnit.SECONDS));
        return new Ends(a, b);
    }

    @Override
    protected boolean lossy() {
        return false;
    }

    @Override
    protected boolean dropsWhenFlooded() {
        return true;
    }
}
