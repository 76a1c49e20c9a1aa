package io.xdlink.ccl;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a device tells the collective library ({@code ncclNetProperties}), version-neutral: every field any ABI
 * version has, each written by the native layer into the layout of the version the host speaks.
 *
 * @param name                shown in the host's logs only
 * @param pciPath             the USB4 host router's {@code /sys} PCI device directory, empty for a loopback device
 * @param guid                devices sharing a guid share one port; ours are distinct per peer
 * @param ptrSupport          {@link #PTR_HOST}: xdlink moves host memory only
 * @param speedMbps           the negotiated rate of the links behind the device (slower direction), Mb/s
 * @param port                port number, 0
 * @param latencyMicros       one-way latency in microseconds, measured or modelled (0 would mean "host default")
 * @param maxComms            connections the device accepts
 * @param maxRecvs            buffers one grouped receive may carry
 * @param vDevices            the physical devices fused into this one: just itself
 * @param maxP2pBytes         largest point-to-point message
 * @param maxCollBytes        largest collective message
 * @param maxMultiRequestSize 1: no multi-request
 */
public record DeviceProperties(String name, Optional<String> pciPath, long guid, int ptrSupport, int speedMbps,
                               int port, float latencyMicros, int maxComms, int maxRecvs, List<Integer> vDevices,
                               long maxP2pBytes, long maxCollBytes, int maxMultiRequestSize) {

    /** {@code NCCL_PTR_HOST}. */
    public static final int PTR_HOST = 0x1;
    /** {@code NCCL_NET_MAX_DEVS_PER_NIC} of v12 (v9 to v11 hold 4). */
    public static final int MAX_VDEVICES = 8;
    /** The largest value {@code maxP2pBytes} and {@code maxCollBytes} may take: 1 TiB. */
    public static final long MAX_NET_SIZE_BYTES = 1L << 40;

    public DeviceProperties {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pciPath, "pciPath");
        vDevices = List.copyOf(vDevices);
        if (speedMbps <= 0) {
            throw new IllegalArgumentException("speed must be a negotiated rate above 0 Mb/s, got " + speedMbps);
        }
        if (vDevices.isEmpty() || vDevices.size() > MAX_VDEVICES) {
            throw new IllegalArgumentException("vDevices must hold 1.." + MAX_VDEVICES + " devices: " + vDevices);
        }
        if (maxP2pBytes <= 0 || maxP2pBytes > MAX_NET_SIZE_BYTES || maxCollBytes <= 0
                || maxCollBytes > MAX_NET_SIZE_BYTES) {
            throw new IllegalArgumentException("maxP2pBytes and maxCollBytes must be in (0, 1 TiB]: " + maxP2pBytes
                    + ", " + maxCollBytes);
        }
        if (maxRecvs < 1 || maxComms < 1 || latencyMicros < 0 || Float.isNaN(latencyMicros)) {
            throw new IllegalArgumentException("maxRecvs " + maxRecvs + ", maxComms " + maxComms + ", latency "
                    + latencyMicros + " are not usable limits");
        }
    }
}
