package io.tollgate.admin;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link ServerControl} that records what the admin API asked of it and reports a state a test sets. */
final class RecordingServerControl implements ServerControl {

    final List<String> calls = new CopyOnWriteArrayList<>();
    volatile String state = "LIVE";

    @Override
    public ServerInfo info() {
        return new ServerInfo("1.2.3", state, Duration.ofMillis(12_345), Duration.ofMillis(67_890), 0,
                "/etc/tollgate.yaml", Duration.ofSeconds(30), List.of("run", "-c", "/etc/tollgate.yaml"));
    }

    @Override
    public void failHealthChecks(boolean fail) {
        calls.add(fail ? "fail" : "ok");
    }

    @Override
    public void drainListeners(boolean graceful) {
        calls.add(graceful ? "drain graceful" : "drain");
    }

    @Override
    public void quit() {
        calls.add("quit");
    }
}
