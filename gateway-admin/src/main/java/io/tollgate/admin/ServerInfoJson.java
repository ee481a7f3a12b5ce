package io.tollgate.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;

/**
 * {@code GET /server_info} as JSON, with the field names of Envoy's answer; durations are written
 * as Envoy writes them, seconds with a fraction and an {@code s} ({@code "12.345s"}).
 */
final class ServerInfoJson {

    private ServerInfoJson() {
    }

    static ObjectNode of(ServerInfo info) {
        ObjectNode json = AdminResponse.mapper().createObjectNode()
                .put("version", info.version())
                .put("state", info.state())
                .put("uptime_current_epoch", seconds(info.uptimeCurrentEpoch()))
                .put("uptime_all_epochs", seconds(info.uptimeAllEpochs()))
                .put("restart_epoch", info.restartEpoch());
        ObjectNode options = json.putObject("command_line_options")
                .put("config_path", info.configPath() == null ? "" : info.configPath())
                .put("restart_epoch", info.restartEpoch())
                .put("drain_time", seconds(info.drainTimeout()));
        ArrayNode args = options.putArray("args");
        info.commandLine().forEach(args::add);
        return json;
    }

    private static String seconds(Duration duration) {
        return String.format("%d.%03ds", duration.toSeconds(), duration.toMillisPart());
    }
}
