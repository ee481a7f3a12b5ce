package io.tollgate.server.cli;

import io.tollgate.server.Gateway;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Prints the gateway's version, taken from the jar manifest. */
@Command(name = "version", description = "Print the version.")
final class VersionCommand implements Runnable, IVersionProvider {

    @Spec
    private CommandSpec spec;

    @Override
    public String[] getVersion() {
        return new String[] {"tollgate " + Gateway.version()};
    }

    @Override
    public void run() {
        spec.commandLine().getOut().println(getVersion()[0]);
    }
}
