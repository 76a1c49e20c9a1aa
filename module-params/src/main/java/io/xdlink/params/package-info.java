/**
 * Every tunable xdlink has, declared once.
 *
 * <p>A parameter is a {@link io.xdlink.params.ParamSpec}: canonical name, declared aliases, deprecated names, a
 * {@link io.xdlink.params.ParamType}, a default, a unit and a one-line description. Each module contributes its specs
 * through a {@link io.xdlink.params.ParamProvider} found with {@link java.util.ServiceLoader}; the
 * {@link io.xdlink.params.ParamRegistry} joins them and refuses a name declared twice. Values come from, lowest to
 * highest precedence: the defaults, a configuration file in modprobe.d syntax, the {@code XDLINK_PARAMS} environment
 * variable, and explicit values from the command line or the plugin. An unknown name or a bad value is an error that
 * names where it came from; nothing is ignored silently, because a silently ignored {@code ring_size=} is how a
 * driver in the field came to look broken.
 *
 * <p>The package also knows the parameters of the foreign USB4 drivers our users run, so their modprobe lines can be
 * checked, and plans DMA rings against the memory a host really has.
 */
package io.xdlink.params;
