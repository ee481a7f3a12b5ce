package io.tollgate.core.config;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.nio.file.Path;

/**
 * Mutual TLS on a listener: which client certificates it asks for and accepts, so that the
 * client's verified identity can be logged and authorized.
 *
 * @param required whether a client without a certificate is refused ({@code true}) or served
 *     without an identity ({@code false}); a certificate that is sent is verified either way
 * @param caFile PEM file with the certificates of the CAs a client certificate must chain to
 * @param allowedSans when not empty, a client certificate is accepted only if one of its subject
 *     alternative names (DNS, URI, IP or e-mail, compared exactly) is in this list
 */
public record ClientAuthConfig(boolean required, Path caFile, List<String> allowedSans) {

    public ClientAuthConfig {
        requireNonNull(caFile, "caFile");
        allowedSans = List.copyOf(allowedSans);
    }
}
