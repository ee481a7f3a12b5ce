package io.tollgate.xds.translation;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tollgate.core.config.CertificateFiles;
import io.tollgate.core.config.ConfigException;
import io.tollgate.core.config.read.ConfigLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where the SDS secrets live for the TLS code, which reads certificates from files and reloads
 * them when they change: each secret is written under a private directory (owner only), at a
 * path that depends on its name alone, so that a pushed new version of a secret replaces the
 * files of the same path (an atomic rename) and the listeners and clusters using it pick it up
 * for new handshakes while their configuration stays the same. Removed when the client closes.
 */
public final class SecretFiles implements AutoCloseable {

    private static final String CHAIN = "cert_chain.pem";
    private static final String KEY = "private_key.pem";
    private static final String CA = "ca.pem";

    private final Map<String, TlsSecret> published = new HashMap<>();
    private Path root;
    private long checks;

    /** The files of certificate secret {@code name}. */
    CertificateFiles certificate(String name) {
        Path dir = directory(name);
        return new CertificateFiles(dir.resolve(CHAIN), dir.resolve(KEY));
    }

    /** The CA file of validation context secret {@code name}. */
    Path trustedCa(String name) {
        return directory(name).resolve(CA);
    }

    /** Checks {@code secret} as the configuration file's certificates are checked; {@code at} names it. */
    void check(TlsSecret secret, String at) {
        Path dir = root().resolve("check-" + checks++);
        try {
            Files.createDirectory(dir);
            ObjectNode tree = JsonNodeFactory.instance.objectNode();
            if (secret.isCertificate()) {
                tree.put("cert_chain_file", write(dir.resolve(CHAIN), secret.certificateChain()).toString());
                tree.put("private_key_file", write(dir.resolve(KEY), secret.privateKey()).toString());
            } else {
                tree.put("ca_file", write(dir.resolve(CA), secret.trustedCa()).toString());
            }
            ConfigLoader.pemFiles(tree, "");
        } catch (ConfigException e) {
            throw new XdsRejection(at + (secret.isCertificate() ? ".tls_certificate" : ".validation_context") + ": "
                    + e.getMessage().replace(dir.toString(), "<inline>"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            delete(dir);
        }
    }

    /**
     * Makes the files of each of {@code secrets} hold it; returns whether a secret that was
     * published before changed (so that TLS contexts using it are rebuilt).
     */
    public boolean publish(Map<String, TlsSecret> secrets) {
        boolean changed = false;
        for (Map.Entry<String, TlsSecret> entry : secrets.entrySet()) {
            TlsSecret secret = entry.getValue();
            TlsSecret before = published.put(entry.getKey(), secret);
            if (secret.equals(before)) {
                continue;
            }
            changed |= before != null;
            try {
                Files.createDirectories(directory(entry.getKey()));
                if (secret.isCertificate()) {
                    CertificateFiles files = certificate(entry.getKey());
                    replace(files.privateKeyFile(), secret.privateKey());
                    replace(files.certChainFile(), secret.certificateChain());
                } else {
                    replace(trustedCa(entry.getKey()), secret.trustedCa());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return changed;
    }

    @Override
    public void close() {
        if (root != null) {
            delete(root);
        }
    }

    private Path directory(String name) {
        return root().resolve(HexFormat.of().formatHex(name.getBytes(StandardCharsets.UTF_8)));
    }

    private Path root() {
        if (root == null) {
            try {
                root = Files.createTempDirectory("tollgate-sds-",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return root;
    }

    private static Path write(Path file, String text) throws IOException {
        return Files.writeString(file, text, StandardCharsets.US_ASCII);
    }

    /** Replaces {@code file} whole: readers see the old content or the new one, never a part. */
    private static void replace(Path file, String text) throws IOException {
        Path next = write(file.resolveSibling(file.getFileName() + ".next"), text);
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
