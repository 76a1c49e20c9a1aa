/**
 * Every tunable xdlink has, declared once: a {@link io.xdlink.params.ParamSpec} (canonical name, declared aliases,
 * deprecated names, a {@link io.xdlink.params.ParamType}, a default, a unit and a one-line description) contributed
 * by each module's {@link io.xdlink.params.ParamProvider} and joined by the {@link io.xdlink.params.ParamRegistry},
 * which refuses a name declared twice. {@link io.xdlink.params.ParamSources} resolves values from, lowest to highest
 * precedence, the defaults, a configuration file in modprobe.d syntax, the {@code XDLINK_PARAMS} environment variable
 * and explicit values, into {@link io.xdlink.params.Params}; an unknown name or a bad value is an error naming where
 * it came from, because a silently ignored {@code ring_size=} is how a driver in the field came to look broken.
 * {@link io.xdlink.params.ParamTable} renders the registry as the documented table (docs/parameters.md) and as
 * {@code xdlink params}. The sub-packages read modprobe.d files as kmod does ({@code modprobe}), check other drivers'
 * option lines for names the kernel would ignore ({@code check}) and plan DMA rings against the memory a host has
 * ({@code dma}).
 */
package io.xdlink.params;
