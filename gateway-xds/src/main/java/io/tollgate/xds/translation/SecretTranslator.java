package io.tollgate.xds.translation;

import io.envoyproxy.envoy.config.core.v3.DataSource;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateValidationContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.TlsCertificate;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * Turns an SDS {@code Secret} into a {@link TlsSecret}: a {@code tls_certificate} (chain and key)
 * or a {@code validation_context} (trusted CAs), inline, checked by the rules of the
 * configuration file's certificate files.
 */
final class SecretTranslator {

    private SecretTranslator() {
    }

    static TlsSecret translate(Secret secret, SecretFiles files) {
        String at = "Secret '" + secret.getName() + "'";
        Fields.allowOnly(secret, at, Set.of("name", "tls_certificate", "validation_context"));
        TlsSecret translated;
        if (secret.hasTlsCertificate()) {
            TlsCertificate certificate = secret.getTlsCertificate();
            String where = at + ".tls_certificate";
            Fields.allowOnly(certificate, where, Set.of("certificate_chain", "private_key"));
            translated = new TlsSecret(inline(certificate.getCertificateChain(), where + ".certificate_chain"),
                    inline(certificate.getPrivateKey(), where + ".private_key"), "");
        } else if (secret.hasValidationContext()) {
            CertificateValidationContext validation = secret.getValidationContext();
            String where = at + ".validation_context";
            Fields.allowOnly(validation, where, Set.of("trusted_ca"));
            translated = new TlsSecret("", "", inline(validation.getTrustedCa(), where + ".trusted_ca"));
        } else {
            throw new XdsRejection(at + ": needs tls_certificate or validation_context");
        }
        files.check(translated, at);
        return translated;
    }

    /** The PEM text of {@code source}, which must be inline (bytes or string). */
    private static String inline(DataSource source, String at) {
        Fields.allowOnly(source, at, Set.of("inline_bytes", "inline_string"));
        String text = switch (source.getSpecifierCase()) {
            case INLINE_BYTES -> source.getInlineBytes().toString(StandardCharsets.US_ASCII);
            case INLINE_STRING -> source.getInlineString();
            default -> throw new XdsRejection(at + ": needs inline_bytes or inline_string");
        };
        if (text.isBlank()) {
            throw new XdsRejection(at + ": must not be empty");
        }
        return text;
    }
}
