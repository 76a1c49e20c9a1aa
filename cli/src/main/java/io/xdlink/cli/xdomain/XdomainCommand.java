package io.xdlink.cli.xdomain;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code xdlink xdomain ...}: tools for the USB4 inter-domain protocol. */
@Command(name = "xdomain", mixinStandardHelpOptions = true,
        description = "Tools for the USB4 inter-domain (XDomain) protocol.",
        subcommands = {DecodeCommand.class})
public final class XdomainCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
