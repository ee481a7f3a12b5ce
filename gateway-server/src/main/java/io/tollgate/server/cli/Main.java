package io.tollgate.server.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code tollgate} command: {@code run}, {@code validate}, {@code version}. */
@Command(name = "tollgate", mixinStandardHelpOptions = true, versionProvider = VersionCommand.class,
        description = "An RPC gateway for SOFA Bolt, HTTP/1.1, HTTP/2 and Dubbo.",
        subcommands = {RunCommand.class, ValidateCommand.class, VersionCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new Main()).execute(args));
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
