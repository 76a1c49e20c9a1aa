package io.xdlink.rails;

import io.xdlink.params.Params;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Finds the fabric the parameters ask for, the one way the plugin and the command line both do it: every
 * {@link FabricProvider} on the class path is asked in name order ({@code host} before {@code loopback}; each
 * declines when the parameters are not for it, so the order decides nothing but the error message), and the first
 * that opens a fabric wins.
 */
public final class Fabrics {
    private Fabrics() {
    }

    /** A fabric and the provider that opened it. */
    public record Opened(String provider, Fabric fabric) {
    }

    /**
     * Opens the fabric these parameters ask for.
     *
     * @throws IOException naming every provider tried when none opened one, or the provider that failed and why
     */
    public static Opened open(Params params) throws IOException {
        List<FabricProvider> providers = new ArrayList<>();
        ServiceLoader.load(FabricProvider.class, Fabrics.class.getClassLoader()).forEach(providers::add);
        providers.sort(Comparator.comparing(FabricProvider::name));
        List<String> tried = new ArrayList<>();
        for (FabricProvider provider : providers) {
            tried.add(provider.name());
            Optional<Fabric> fabric;
            try {
                fabric = provider.open(params);
            } catch (IOException | RuntimeException e) {
                throw new IOException("the " + provider.name() + " fabric failed to open: " + e.getMessage(), e);
            }
            if (fabric.isPresent()) {
                return new Opened(provider.name(), fabric.get());
            }
        }
        throw new IOException(tried.isEmpty()
                ? "no fabric provider on the class path (io.xdlink.rails.FabricProvider)"
                : "no fabric answered the parameters; tried " + String.join(", ", tried)
                        + " (loopback=1 selects the simulator)");
    }
}
