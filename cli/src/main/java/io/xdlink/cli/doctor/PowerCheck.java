package io.xdlink.cli.doctor;

import io.xdlink.xdomain.sysfs.Text;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Check 6, power settings that add latency: the PCIe ASPM policy (and ASPM on individual links), USB autosuspend on
 * network adapters, and deep CPU idle states. In the field these cost more than the choice between TCP and RDMA; each
 * finding quotes the measured effect ({@link FieldLatency}).
 */
public final class PowerCheck implements Check {
    /** Exit latency above which an idle state counts as deep: C1 (1-2 us) is not, C1E and beyond are. */
    static final int DEEP_LATENCY_US = 2;
    private static final Pattern POLICY = Pattern.compile("\\[([a-z_]+)]");
    private static final Pattern CPU = Pattern.compile("cpu(\\d{1,5})");
    private static final Pattern STATE = Pattern.compile("state(\\d{1,3})");
    private static final Pattern USB_INTERFACE = Pattern.compile("\\d+-[\\d.]+:\\d+\\.\\d+");
    private static final int MAX_CPUS = 8192;
    private static final int MAX_PCI = 4096;
    private static final int MAX_NET = 1024;

    @Override
    public String name() {
        return "power";
    }

    @Override
    public List<CheckResult> run(Host host) {
        List<CheckResult> out = new ArrayList<>();
        out.add(aspm(host));
        out.addAll(usbAutosuspend(host));
        out.add(cpuIdle(host));
        return out;
    }

    private CheckResult aspm(Host host) {
        String file = "/sys/module/pcie_aspm/parameters/policy";
        Optional<String> policy = HostFiles.attribute(host.path(file));
        String effect = FieldLatency.effect(FieldLatency.ASPM_OFF);
        String fix = "echo performance | sudo tee " + file + " (at boot: pcie_aspm.policy=performance)";
        if (policy.isEmpty()) {
            return CheckResult.ok("power/aspm", "no " + file + ": this kernel does not manage PCIe ASPM");
        }
        Matcher m = POLICY.matcher(policy.get());
        if (!m.find()) {
            return CheckResult.warn("power/aspm", file + " reads " + Text.quote(policy.get()) + ", with no active"
                    + " policy in [brackets]", "read it again; the kernel marks the active policy in brackets");
        }
        String active = m.group(1);
        if (active.equals("powersave") || active.equals("powersupersave")) {
            return CheckResult.warn("power/aspm", "PCIe ASPM policy is " + active + ": links sleep between packets; "
                    + effect, fix);
        }
        if (active.equals("performance")) {
            return CheckResult.ok("power/aspm", "PCIe ASPM policy is performance: links do not enter ASPM states");
        }
        List<String> enabled = new ArrayList<>();
        for (Path dev : HostFiles.list(host.path("/sys/bus/pci/devices"), MAX_PCI)) {
            for (String attr : new String[] {"l0s_aspm", "l1_aspm", "l1_1_aspm", "l1_2_aspm"}) {
                if (HostFiles.attribute(dev.resolve("link").resolve(attr)).filter("1"::equals).isPresent()) {
                    enabled.add(Text.printable(dev.getFileName().toString()) + " " + attr);
                }
            }
        }
        if (enabled.isEmpty()) {
            return CheckResult.ok("power/aspm", "PCIe ASPM policy is " + active + " and no PCIe link reports an ASPM"
                    + " state enabled");
        }
        String first = String.join(", ", enabled.subList(0, Math.min(3, enabled.size())));
        String dev = enabled.getFirst().substring(0, enabled.getFirst().indexOf(' '));
        String attr = enabled.getFirst().substring(enabled.getFirst().indexOf(' ') + 1);
        return CheckResult.warn("power/aspm", "PCIe ASPM policy is " + active + " (the firmware's choice) and "
                + enabled.size() + " link state" + (enabled.size() == 1 ? " is" : "s are") + " enabled (" + first
                + (enabled.size() > 3 ? ", ..." : "") + "); " + effect, fix + ", or per link: echo 0 | sudo tee"
                + " /sys/bus/pci/devices/" + dev + "/link/" + attr);
    }

    private List<CheckResult> usbAutosuspend(Host host) {
        List<CheckResult> out = new ArrayList<>();
        String effect = "the field's ASPM step, which also set USB power/control to on, took a USB 1GbE's ping from "
                + "0.156 to 0.145 ms";
        for (Path iface : HostFiles.list(host.path("/sys/class/net"), MAX_NET)) {
            Path device = iface.resolve("device");
            if (!Files.exists(device)) {
                continue;
            }
            Path real = HostFiles.real(device);
            Path fn = real.getFileName();
            if (fn == null || !USB_INTERFACE.matcher(fn.toString()).matches() || real.getParent() == null) {
                continue;
            }
            Path usb = real.getParent();
            String name = Text.printable(iface.getFileName().toString());
            String usbName = Text.printable(usb.getFileName().toString());
            Optional<String> control = HostFiles.attribute(usb.resolve("power/control"));
            String id = "power/usb/" + name;
            if (control.isEmpty()) {
                out.add(CheckResult.ok(id, "USB network adapter " + name + " (" + usbName + ") has no power/control:"
                        + " its autosuspend cannot be read"));
            } else if (control.get().equals("auto")) {
                out.add(CheckResult.warn(id, "USB network adapter " + name + " (" + usbName + ") may autosuspend"
                        + " (power/control is auto); " + effect, "echo on | sudo tee"
                        + " /sys/bus/usb/devices/" + usbName + "/power/control"));
            } else {
                out.add(CheckResult.ok(id, "USB network adapter " + name + " (" + usbName + ") stays awake (power/control"
                        + " is " + Text.printable(control.get()) + ")"));
            }
        }
        if (out.isEmpty()) {
            out.add(CheckResult.ok("power/usb", "no USB network adapters"));
        }
        return out;
    }

    private CheckResult cpuIdle(Host host) {
        Map<String, long[]> deep = new TreeMap<>();
        int cpus = 0;
        int cpusWithDeep = 0;
        boolean anyIdle = false;
        for (Path cpu : HostFiles.list(host.path("/sys/devices/system/cpu"), MAX_CPUS + 64)) {
            if (!CPU.matcher(cpu.getFileName().toString()).matches()) {
                continue;
            }
            cpus++;
            boolean hasDeep = false;
            for (Path state : HostFiles.list(cpu.resolve("cpuidle"), 64)) {
                if (!STATE.matcher(state.getFileName().toString()).matches()) {
                    continue;
                }
                anyIdle = true;
                String name = HostFiles.attribute(state.resolve("name")).map(Text::printable).orElse("?");
                long latency = HostFiles.attribute(state.resolve("latency")).filter(v -> v.matches("\\d{1,9}"))
                        .map(Long::parseLong).orElse(-1L);
                boolean disabled = HostFiles.attribute(state.resolve("disable")).filter("1"::equals).isPresent();
                if (!disabled && !name.equals("POLL") && latency > DEEP_LATENCY_US) {
                    hasDeep = true;
                    deep.computeIfAbsent(name, k -> new long[] {latency, 0})[1]++;
                }
            }
            if (hasDeep) {
                cpusWithDeep++;
            }
        }
        if (!anyIdle) {
            return CheckResult.ok("power/cpuidle", "no CPU idle states are exposed (no cpuidle driver: a virtual"
                    + " machine, or idle=poll)");
        }
        if (deep.isEmpty()) {
            return CheckResult.ok("power/cpuidle", "no CPU idle state deeper than " + DEEP_LATENCY_US + " us exit"
                    + " latency is enabled on " + cpus + " CPUs");
        }
        List<String> states = new ArrayList<>();
        deep.forEach((n, v) -> states.add(n + " (exit " + v[0] + " us)"));
        return CheckResult.warn("power/cpuidle", "deep CPU idle states " + String.join(", ", states)
                + " are enabled on " + cpusWithDeep + " of " + cpus + " CPUs; "
                + FieldLatency.effect(FieldLatency.C_STATES_OFF),
                "while the cluster runs, hold /dev/cpu_dma_latency open with the value 0 (a small service that"
                        + " writes 0 and keeps it open), or disable each state: echo 1 | sudo tee"
                        + " /sys/devices/system/cpu/cpu*/cpuidle/stateN/disable");
    }
}
