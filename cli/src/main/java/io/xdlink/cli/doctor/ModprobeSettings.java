package io.xdlink.cli.doctor;

import io.xdlink.params.modprobe.ModprobeCommand;
import io.xdlink.params.modprobe.ModprobeFile;
import io.xdlink.params.modprobe.ModprobeOption;
import io.xdlink.params.modprobe.ModprobeScan;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a host's modprobe.d configuration, as module-params' scanner read it, hands each module: for every parameter
 * name the value that wins (the kernel applies options in order, so the last one), with the file and line it is on.
 */
final class ModprobeSettings {
    /**
     * One effective setting.
     *
     * @param value the value, empty for a bare name
     * @param where {@code file:line}, as the host names the file
     */
    record Setting(String value, String where) {
    }

    private final Map<String, Map<String, Setting>> byModule = new LinkedHashMap<>();

    ModprobeSettings(Host host, ModprobeScan scan) {
        for (ModprobeFile f : scan.files()) {
            for (ModprobeCommand.Options o : f.options()) {
                Map<String, Setting> m = byModule.computeIfAbsent(o.normalizedModule(), k -> new LinkedHashMap<>());
                for (ModprobeOption opt : o.options()) {
                    m.put(opt.normalizedName(), new Setting(opt.value(), host.show(o.file()) + ":" + opt.line()));
                }
            }
        }
    }

    /** Whether any options line names the module. */
    boolean configures(String module) {
        return byModule.containsKey(ModprobeCommand.normalize(module));
    }

    /** The setting of one parameter of one module, if a line sets it. */
    Optional<Setting> get(String module, String parameter) {
        return Optional.ofNullable(byModule.getOrDefault(ModprobeCommand.normalize(module), Map.of())
                .get(ModprobeCommand.normalize(parameter)));
    }
}
