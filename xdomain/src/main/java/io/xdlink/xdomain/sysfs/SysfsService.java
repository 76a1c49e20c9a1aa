package io.xdlink.xdomain.sysfs;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A service a peer published, as the kernel shows it ({@code 0-1.0}, DEVTYPE {@code thunderbolt_service}). The
 * protocol fields are empty where the file was missing or malformed; the view's problems say which.
 *
 * @param name          the device name, {@code <peer>.<id>}
 * @param id            the number after the dot
 * @param key           the directory key the peer published ({@code network}, {@code xdlink}), printable
 * @param protocolId    {@code prtcid}
 * @param version       {@code prtcvers}
 * @param revision      {@code prtcrevs}
 * @param settings      {@code prtcstns}, the protocol settings bits
 * @param modalias      the module alias the kernel matches drivers with, printable
 * @param driver        the bound driver ({@code thunderbolt-net}), the {@code driver} link's target name
 * @param netInterfaces network interfaces below the service ({@code thunderbolt0}), sorted
 */
public record SysfsService(String name, int id, String key, OptionalLong protocolId, OptionalLong version,
                           OptionalLong revision, OptionalLong settings, String modalias, Optional<String> driver,
                           List<String> netInterfaces) {
    public SysfsService {
        netInterfaces = List.copyOf(netInterfaces);
    }

    /** thunderbolt-net's service: key {@code network}. */
    public boolean isNetwork() {
        return key.equals("network");
    }

    /** xdlink's own service: key {@code xdlink}. */
    public boolean isXdlink() {
        return key.equals("xdlink");
    }
}
