package io.xdlink.cli.doctor;

import io.xdlink.cli.host.HostParams;
import io.xdlink.params.ParamException;
import io.xdlink.params.ParamRegistry;
import io.xdlink.params.ParamSources;
import io.xdlink.params.Params;
import io.xdlink.params.check.ForeignDriver;
import io.xdlink.params.check.ForeignDrivers;
import io.xdlink.params.dma.DmaFacts;
import io.xdlink.params.dma.DmaFactsReader;
import io.xdlink.params.dma.DmaParams;
import io.xdlink.params.dma.RingPlan;
import io.xdlink.params.dma.RingPlanner;
import io.xdlink.params.dma.RingRequest;
import io.xdlink.params.modprobe.ModprobeSearchPath;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Check 3, DMA memory: the host's CMA and IOMMU mode (module-params' {@link DmaFactsReader}) against the ring sizes
 * the USB4 drivers and xdlink will ask for, planned by module-params' {@link RingPlanner}. A foreign driver does not
 * fall back: a ring that does not fit fails its probe with -ENOMEM, so that is a failure with the size that fits.
 * xdlink falls back by itself, loudly, so a ring of its that does not fit is a warning.
 */
public final class DmaCheck implements Check {
    /** The smallest ring considered for a foreign driver: its own minimum is not known, so any size may be advised. */
    static final long FOREIGN_MIN_FRAMES = 1;

    @Override
    public String name() {
        return "dma";
    }

    @Override
    public List<CheckResult> run(Host host) {
        List<CheckResult> out = new ArrayList<>();
        DmaFacts facts = DmaFactsReader.read(host.root());
        String seen = facts.cmaText() + "; " + facts.iommuEvidence();
        out.add(CheckResult.ok("dma", "DMA memory: " + host.show(seen)
                + (facts.notes().isEmpty() ? "" : " (" + host.show(String.join("; ", facts.notes())) + ")")));
        ModprobeSettings settings = new ModprobeSettings(host, ModprobeSearchPath.scan(host.root()));
        for (ForeignDriver d : ForeignDrivers.ALL) {
            Optional<ForeignDriver.Parameter> ring = d.ringParameter();
            boolean present = Files.isDirectory(host.path("/sys/module/" + d.module()))
                    || settings.configures(d.module());
            if (ring.isPresent() && present) {
                out.add(foreign(host, d, ring.get(), settings, facts));
            }
        }
        out.add(xdlink(host, facts));
        return out;
    }

    private CheckResult foreign(Host host, ForeignDriver d, ForeignDriver.Parameter ring, ModprobeSettings settings,
                                DmaFacts facts) {
        String id = "dma/" + d.module();
        Optional<ModprobeSettings.Setting> set = settings.get(d.module(), ring.name());
        Optional<String> now = ModuleParamsCheck.current(host, d.module(), ring.name());
        long frames;
        String source;
        if (set.isPresent() && set.get().value().matches("\\d{1,10}")) {
            frames = Long.parseLong(set.get().value());
            source = ring.name() + "=" + frames + " at " + set.get().where();
        } else if (now.isPresent() && now.get().matches("\\d{1,10}")) {
            frames = Long.parseLong(now.get());
            source = ring.name() + "=" + frames + " in the loaded module";
        } else if (ring.defaultValue().matches("\\d{1,10}")) {
            frames = Long.parseLong(ring.defaultValue());
            source = ring.name() + " at its default of " + frames + " (no line sets it"
                    + (settings.configures(d.module()) ? " under the name the module declares" : "") + ")";
        } else {
            return CheckResult.warn(id, d.module() + ": its ring size cannot be told", "set " + ring.name()
                    + " explicitly in /etc/modprobe.d");
        }
        if (frames < 1 || frames > RingRequest.MAX_FRAMES) {
            return CheckResult.warn(id, d.module() + ": " + source + " is not a ring size", "set " + ring.name()
                    + " to a power of two such as 1024");
        }
        RingPlan plan = RingPlanner.plan(new RingRequest(ring.name(), frames, Math.min(frames, FOREIGN_MIN_FRAMES), 1),
                facts);
        RingPlan.Step first = plan.steps().getFirst();
        String head = d.module() + " rings of " + frames + " frames (" + source + "): " + first.reason();
        if (!plan.fellBack()) {
            return CheckResult.ok(id, head);
        }
        if (!plan.fits()) {
            return CheckResult.fail(id, head + "; the probe fails with -ENOMEM and not even " + plan.steps().getLast()
                    .frames() + " frames fit", "reserve CMA (cma=64M on the kernel command line) or let the IOMMU"
                    + " translate DMA");
        }
        return CheckResult.fail(id, head + "; " + d.module() + " does not fall back, so its probe fails with"
                + " -ENOMEM; " + plan.frames() + " frames (" + mib(plan.bytes()) + " MiB) fit",
                "add 'options " + d.module() + " " + ring.name() + "=" + plan.frames() + "' to /etc/modprobe.d/"
                        + d.module() + ".conf and reload it, or reserve at least " + mib(first.bytes())
                        + " MiB of CMA per ring (cma=" + mib(first.bytes()) + "M or more on the kernel command line)");
    }

    private static long mib(long bytes) {
        return (bytes + (1 << 20) - 1) >> 20;
    }

    private CheckResult xdlink(Host host, DmaFacts facts) {
        ParamRegistry registry = ParamRegistry.load();
        Params params;
        String source;
        try {
            params = HostParams.load(registry, host.root(), host.env());
            source = DmaParams.RING_SIZE.name() + "=" + params.get(DmaParams.RING_SIZE) + " ("
                    + host.show(params.origin(DmaParams.RING_SIZE).toString()) + ")";
        } catch (ParamException e) {
            params = Params.defaults(registry);
            source = DmaParams.RING_SIZE.name() + " at its default of " + params.get(DmaParams.RING_SIZE)
                    + " (the configuration does not load: " + host.show(String.valueOf(e.getMessage())) + ")";
        }
        RingPlan plan = RingPlanner.plan(RingRequest.from(params, 1), facts);
        String head = "xdlink rings of " + plan.request().frames() + " frames, " + source + ": "
                + plan.steps().getFirst().reason();
        if (!plan.fellBack()) {
            return CheckResult.ok("dma/xdlink", head);
        }
        if (!plan.fits()) {
            return CheckResult.fail("dma/xdlink", host.show(plan.warning()), "reserve CMA or lower "
                    + DmaParams.RING_SIZE_MIN.name());
        }
        return CheckResult.warn("dma/xdlink", host.show(plan.warning()), "set " + DmaParams.RING_SIZE.name() + "="
                + plan.frames() + " in " + ParamSources.DEFAULT_CONFIG + " to choose it yourself, or reserve CMA");
    }
}
