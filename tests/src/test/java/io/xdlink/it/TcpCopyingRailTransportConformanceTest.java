package io.xdlink.it;

import io.xdlink.rails.tcp.TcpSettings;

/**
 * The conformance suite over TCP rails that copy payloads into their batch ({@code tcp_payload_by_reference=0}):
 * a run's frames go out whole, one record each, the way a transport that must copy takes the run fast path.
 */
class TcpCopyingRailTransportConformanceTest extends TcpRailTransportConformanceTest {

    @Override
    protected TcpSettings settings() {
        TcpSettings d = TcpSettings.defaults();
        return new TcpSettings(d.socketSendBuffer(), d.socketReceiveBuffer(), d.railBuffer(), d.connectTimeout(),
                d.keepaliveInterval(), d.keepaliveTimeout(), d.reconnectInterval(), false, d.readIntoPlace());
    }
}
