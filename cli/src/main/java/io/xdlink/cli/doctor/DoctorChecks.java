package io.xdlink.cli.doctor;

import java.util.List;

/** Doctor's checks, in the order the report lists them. */
public final class DoctorChecks {
    private DoctorChecks() {
    }

    public static List<Check> all() {
        return List.of(new LinksCheck(), new ModuleParamsCheck(), new DmaCheck(), new RdmaProvidersCheck(),
                new CclPluginsCheck(), new PowerCheck());
    }
}
