package io.tollgate.server.tls;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The verified identity of a client that presented a certificate on a mutual-TLS listener: its
 * subject and subject alternative names. Kept on the connection ({@link #of(Channel)}) so that
 * the access log and authorization read it for every request without parsing the certificate.
 *
 * @param subject the certificate's subject distinguished name (RFC 2253)
 * @param subjectAltNames its DNS, URI, IP and e-mail alternative names, in certificate order
 */
public record PeerIdentity(String subject, List<String> subjectAltNames) {

    private static final AttributeKey<PeerIdentity> KEY = AttributeKey.valueOf(PeerIdentity.class, "peer");
    /** The alternative name types kept: rfc822Name (1), dNSName (2), URI (6), iPAddress (7). */
    private static final List<Integer> KEPT_TYPES = List.of(1, 2, 6, 7);

    public PeerIdentity {
        subjectAltNames = List.copyOf(subjectAltNames);
    }

    /** The identity of a verified client certificate. */
    static PeerIdentity of(X509Certificate certificate) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> sans = certificate.getSubjectAlternativeNames();
            if (sans != null) {
                for (List<?> san : sans) {
                    if (KEPT_TYPES.contains((Integer) san.get(0)) && san.get(1) instanceof String name) {
                        names.add(name);
                    }
                }
            }
        } catch (CertificateParsingException e) {
            // an unreadable extension gives no names; the subject still identifies the client
        }
        return new PeerIdentity(certificate.getSubjectX500Principal().getName(), names);
    }

    /** The identity of the client on {@code channel}, or null when it presented no certificate. */
    public static PeerIdentity of(Channel channel) {
        return channel.attr(KEY).get();
    }

    /** The first URI alternative name (a SPIFFE id, typically), else the first other one, else the subject. */
    public String principal() {
        for (String name : subjectAltNames) {
            if (name.contains("://")) {
                return name;
            }
        }
        return subjectAltNames.isEmpty() ? subject : subjectAltNames.get(0);
    }

    void attachTo(Channel channel) {
        channel.attr(KEY).set(this);
    }
}
