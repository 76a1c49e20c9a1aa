package io.xdlink.params;

import java.util.List;
import java.util.ServiceLoader;

/**
 * A module's contribution to the registry, found with {@link ServiceLoader}
 * ({@code META-INF/services/io.xdlink.params.ParamProvider}).
 */
public interface ParamProvider {
    /** The module that owns these parameters, as shown in tables (for example {@code rails}). */
    String module();

    /** The parameters this module declares. */
    List<ParamSpec<?>> specs();
}
