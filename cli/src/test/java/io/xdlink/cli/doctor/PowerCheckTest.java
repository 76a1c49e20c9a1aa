package io.xdlink.cli.doctor;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PowerCheckTest extends CheckTestBase {
    @Override
    Check check() {
        return new PowerCheck();
    }

    /** A USB network adapter as the kernel links it: /sys/class/net/IF -> .../USBDEV/USBDEV:1.0/net/IF. */
    void usbAdapter(String iface, String usbDev, String control) {
        String dev = "/sys/devices/pci0000:00/0000:00:14.0/usb3/" + usbDev;
        String intf = dev + "/" + usbDev + ":1.0";
        fx.dir(intf + "/net/" + iface).file(dev + "/power/control", control + "\n")
                .link(intf + "/net/" + iface + "/device", "../../../" + usbDev + ":1.0")
                .link("/sys/class/net/" + iface, "../../devices/pci0000:00/0000:00:14.0/usb3/" + usbDev + "/"
                        + usbDev + ":1.0/net/" + iface);
    }

    void cpus(int n, boolean deepDisabled) {
        for (int c = 0; c < n; c++) {
            String base = "/sys/devices/system/cpu/cpu" + c + "/cpuidle/";
            fx.file(base + "state0/name", "POLL\n").file(base + "state0/latency", "0\n")
                    .file(base + "state0/disable", "0\n")
                    .file(base + "state1/name", "C1\n").file(base + "state1/latency", "1\n")
                    .file(base + "state1/disable", "0\n")
                    .file(base + "state2/name", "C2\n").file(base + "state2/latency", "18\n")
                    .file(base + "state2/disable", deepDisabled ? "1\n" : "0\n")
                    .file(base + "state3/name", "C3\n").file(base + "state3/latency", "350\n")
                    .file(base + "state3/disable", deepDisabled ? "1\n" : "0\n");
        }
        fx.dir("/sys/devices/system/cpu/cpufreq").file("/sys/devices/system/cpu/online", "0-" + (n - 1) + "\n");
    }

    @Test
    void aspmPowersaveWarnsWithTheFieldMeasurement() {
        fx.file("/sys/module/pcie_aspm/parameters/policy", "default performance [powersave] powersupersave\n");

        CheckResult c = result("power/aspm");

        assertThat(c.status()).isEqualTo(Status.WARN);
        assertThat(c.summary()).isEqualTo("PCIe ASPM policy is powersave: links sleep between packets; in the field's"
                + " measurements, turning ASPM off took ping from 0.156 to 0.145 ms on a USB 1GbE, 2.798 to 0.083 ms"
                + " on an onboard 2.5GbE, 0.070 to 0.052 ms on a ConnectX-3");
        assertThat(c.fix()).isEqualTo("echo performance | sudo tee /sys/module/pcie_aspm/parameters/policy (at boot:"
                + " pcie_aspm.policy=performance)");
    }

    @Test
    void aspmDefaultWithEnabledLinks() {
        fx.file("/sys/module/pcie_aspm/parameters/policy", "[default] performance powersave powersupersave\n")
                .file("/sys/bus/pci/devices/0000:01:00.0/link/l1_aspm", "1\n")
                .file("/sys/bus/pci/devices/0000:01:00.0/link/l0s_aspm", "0\n")
                .file("/sys/bus/pci/devices/0000:02:00.0/link/l1_aspm", "0\n");

        CheckResult c = result("power/aspm");

        assertThat(c.status()).isEqualTo(Status.WARN);
        assertThat(c.summary()).startsWith("PCIe ASPM policy is default (the firmware's choice) and 1 link state is"
                + " enabled (0000:01:00.0 l1_aspm);");
        assertThat(c.fix()).endsWith("or per link: echo 0 | sudo tee /sys/bus/pci/devices/0000:01:00.0/link/l1_aspm");
    }

    @Test
    void aspmPerformanceOrDefaultWithNothingEnabledIsOk() {
        fx.file("/sys/module/pcie_aspm/parameters/policy", "default [performance] powersave powersupersave\n");
        assertThat(result("power/aspm").status()).isEqualTo(Status.OK);
        fx.file("/sys/module/pcie_aspm/parameters/policy", "[default] performance powersave powersupersave\n")
                .file("/sys/bus/pci/devices/0000:01:00.0/link/l1_aspm", "0\n");
        assertThat(result("power/aspm").status()).isEqualTo(Status.OK);
    }

    @Test
    void usbAutosuspendAutoOnANetworkAdapter() {
        usbAdapter("enx00e04c680001", "3-2", "auto");
        usbAdapter("enx00e04c680002", "3-4", "on");
        fx.dir("/sys/devices/virtual/net/lo").link("/sys/class/net/lo", "../../devices/virtual/net/lo");

        CheckResult c = result("power/usb/enx00e04c680001");

        assertThat(c.status()).isEqualTo(Status.WARN);
        assertThat(c.summary()).isEqualTo("USB network adapter enx00e04c680001 (3-2) may autosuspend (power/control"
                + " is auto); the field's ASPM step, which also set USB power/control to on, took a USB 1GbE's ping"
                + " from 0.156 to 0.145 ms");
        assertThat(c.fix()).isEqualTo("echo on | sudo tee /sys/bus/usb/devices/3-2/power/control");
        assertThat(result("power/usb/enx00e04c680002").status()).isEqualTo(Status.OK);
        assertThat(run()).extracting(CheckResult::id).doesNotContain("power/usb/lo");
    }

    @Test
    void deepCStatesEnabledWarn() {
        cpus(4, false);

        CheckResult c = result("power/cpuidle");

        assertThat(c.status()).isEqualTo(Status.WARN);
        assertThat(c.summary()).isEqualTo("deep CPU idle states C2 (exit 18 us), C3 (exit 350 us) are enabled on 4 of"
                + " 4 CPUs; in the field's measurements, turning C-states off took ping from 0.578 to 0.239 ms on a"
                + " USB 1GbE, 2.268 to 1.471 ms on an onboard 2.5GbE, 0.355 to 0.070 ms on a ConnectX-3");
        assertThat(c.fix()).contains("/dev/cpu_dma_latency");
    }

    @Test
    void deepCStatesDisabledOrAbsentAreOk() {
        assertThat(result("power/cpuidle").summary()).startsWith("no CPU idle states are exposed");
        cpus(2, true);
        assertThat(result("power/cpuidle").status()).isEqualTo(Status.OK);
        assertThat(result("power/cpuidle").summary()).isEqualTo("no CPU idle state deeper than 2 us exit latency is"
                + " enabled on 2 CPUs");
    }

    @Test
    void hostileValuesAreReportedNotTrusted() {
        fx.file("/sys/module/pcie_aspm/parameters/policy", "no\u001b[31mne\n");
        fx.file("/sys/devices/system/cpu/cpu0/cpuidle/state1/name", "C9\n")
                .file("/sys/devices/system/cpu/cpu0/cpuidle/state1/latency", "lots\n");

        CheckResult aspm = result("power/aspm");

        assertThat(aspm.status()).isEqualTo(Status.WARN);
        assertThat(aspm.summary()).contains("no\\x1b[31mne").doesNotContain("\u001b");
        assertThat(result("power/cpuidle").status()).isEqualTo(Status.OK);
    }
}
