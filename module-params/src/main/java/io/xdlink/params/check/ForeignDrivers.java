package io.xdlink.params.check;

import io.xdlink.params.check.ForeignDriver.Mistake;
import io.xdlink.params.check.ForeignDriver.Parameter;

import java.util.List;
import java.util.Optional;

/**
 * The drivers our users run beside xdlink, with the names their code declares (shared/spec/host.md, and for the two
 * in-tree drivers the {@code module_param} declarations of drivers/thunderbolt and drivers/net/thunderbolt) and the
 * field failures of exactly the kind this checker exists for.
 */
public final class ForeignDrivers {
    private ForeignDrivers() {
    }

    /** OdinLink-Five's USB4 RDMA driver. */
    public static final ForeignDriver ODL_TB5 = new ForeignDriver("odl_tb5", "OdinLink-Five",
            List.of(new Parameter("odl_ring_size", "frames of 4 KiB", "4096", true),
                    Parameter.named("loopback"),
                    Parameter.named("protocol"),
                    Parameter.named("e2e"),
                    Parameter.named("odl_busy_poll_us"),
                    Parameter.named("max_devices")),
            List.of(new Mistake("ring_size", "odl_ring_size", "OdinLink-Five's README and INSTALL document "
                    + "ring_size, but the module declares only odl_ring_size (no alias), so the kernel ignores "
                    + "ring_size and keeps the 4096-frame default, a 16 MiB DMA buffer that fails to allocate on a "
                    + "kernel without CMA")));

    /** hellas-ai's thunderbolt-ibverbs driver. */
    public static final ForeignDriver THUNDERBOLT_IBVERBS = new ForeignDriver("thunderbolt_ibverbs",
            "hellas-ai thunderbolt-ibverbs",
            List.of(Parameter.named("compat"),
                    new Parameter("profile", "auto|mac_compat|linux_perf|mixed", "", false),
                    new Parameter("tbnet", "auto|allow|prefer_rdma|block", "", false),
                    new Parameter("lanes", "auto, N or MIN-MAX", "", false),
                    Parameter.named("bind_services"),
                    Parameter.named("allocate_rings"),
                    Parameter.named("start_rings"),
                    Parameter.named("negotiate_native"),
                    Parameter.named("enable_tunnels"),
                    Parameter.named("register_verbs"),
                    Parameter.named("native_data"),
                    Parameter.named("apple_data"),
                    Parameter.named("native_fragment_striping"),
                    Parameter.named("native_prtcstns"),
                    Parameter.named("apple_prtcstns"),
                    Parameter.named("nhi_interrupt_throttle_ns"),
                    new Parameter("native_tx_max_inflight", "", "32", false),
                    Parameter.named("roce_netdev"),
                    Parameter.named("zcopy_min_bytes"),
                    Parameter.named("qp_timeout_ms"),
                    new Parameter("native_e2e", "-1 (auto), 0 or 1", "-1", false)),
            List.of(new Mistake("native_wr_striping", "", "hellas-ai's documentation still describes "
                    + "native_wr_striping, but it was removed from the driver, so the kernel ignores it")));

    /** The in-tree USB4 networking driver (thunderbolt-net). */
    public static final ForeignDriver THUNDERBOLT_NET = new ForeignDriver("thunderbolt_net", "Linux",
            List.of(new Parameter("e2e", "bool", "true", false)),
            List.of());

    /**
     * The in-tree USB4/Thunderbolt core driver. host.md names xdomain and dma_credits; the others are the module's
     * other declared parameters, listed so that a correct line is never reported.
     */
    public static final ForeignDriver THUNDERBOLT = new ForeignDriver("thunderbolt", "Linux",
            List.of(new Parameter("xdomain", "bool", "true", false),
                    new Parameter("dma_credits", "credits", "14", false),
                    new Parameter("clx", "bool", "true", false),
                    new Parameter("start_icm", "bool", "false", false),
                    new Parameter("host_reset", "bool", "true", false),
                    new Parameter("bw_alloc_mode", "bool", "true", false),
                    new Parameter("asym_threshold", "Mb/s", "45000", false)),
            List.of());

    /** Every driver known here. */
    public static final List<ForeignDriver> ALL = List.of(ODL_TB5, THUNDERBOLT_IBVERBS, THUNDERBOLT_NET, THUNDERBOLT);

    /** The driver of this module name ('-' and '_' alike). */
    public static Optional<ForeignDriver> find(String module) {
        String m = module.replace('-', '_');
        return ALL.stream().filter(d -> d.module().equals(m)).findFirst();
    }
}
