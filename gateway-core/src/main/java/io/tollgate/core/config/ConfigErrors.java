package io.tollgate.core.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Every error of one document being read, so that a file with ten mistakes is refused once with
 * all ten rather than ten times with one each. Every {@link ConfigNode} of the document carries
 * it. Errors are kept where they can be recovered from and the reading goes on:
 * <ul>
 * <li>a bad optional field is recorded and read as if it were absent (its default);</li>
 * <li>an error thrown inside a list element is recorded and the element left out; the next
 *     elements are read, then the node holding the list is given up (its own checks would see
 *     the list short of an element and name the wrong indices), up to the nearest list element or
 *     independent part ({@link ConfigNode#independent}) above it;</li>
 * <li>the clusters named by routes and filters are checked once the whole file is read.</li>
 * </ul>
 * An error at a path where an earlier one was recorded, or under it, follows from that one and is
 * left out; so is an error thrown about a node under which an error was recorded (a mapping that
 * "needs exactly one of path, prefix, regex" once its misspelt {@code prefx} was reported, a
 * check of a field read as its default). {@link #throwIfAny} lists the errors in the order of
 * the fields in the document.
 */
final class ConfigErrors {

    private final List<Recorded> errors = new ArrayList<>();
    private final List<Reference> references = new ArrayList<>();

    /** One error and the node it is about. */
    private record Recorded(ConfigNode at, String message) {
    }

    /** A cluster a field names, checked once every cluster is known. */
    private record Reference(ConfigNode at, String cluster) {
    }

    /**
     * Thrown past every reader up to the nearest boundary once its errors were recorded: the part
     * being read is given up without a further message.
     */
    static final class GivenUp extends RuntimeException {

        private static final long serialVersionUID = 1L;

        GivenUp() {
            super("given up after its errors were recorded", null, false, false);
        }
    }

    /**
     * Records {@code error} about {@code at}, unless it follows from an error already recorded;
     * {@code thrown} when it ended the reading of the part it is in.
     */
    void add(ConfigNode at, ConfigException error, boolean thrown) {
        ConfigNode origin = error.origin() != null ? error.origin() : at;
        String path = origin.path();
        for (Recorded earlier : errors) {
            String before = earlier.at().path();
            if (path.equals(before) || under(path, before) || thrown && under(before, path)) {
                return;
            }
        }
        for (String message : error.errors().isEmpty() ? List.of(String.valueOf(error.getMessage())) : error.errors()) {
            errors.add(new Recorded(origin, message));
        }
    }

    /** Whether {@code path} lies below {@code ancestor} (everything lies below the root, {@code ""}). */
    private static boolean under(String path, String ancestor) {
        return ancestor.isEmpty() ? !path.isEmpty()
                : path.startsWith(ancestor + ".") || path.startsWith(ancestor + "[");
    }

    /**
     * Reads a part of the document: an error it throws is recorded and ends the part with
     * {@link GivenUp}. Any other exception thrown after the part recorded an error follows from
     * the defaults its bad fields were read as, and ends it the same way.
     */
    <T> T guard(ConfigNode at, Supplier<T> read) {
        int before = errors.size();
        try {
            return read.get();
        } catch (GivenUp e) {
            throw e;
        } catch (ConfigException e) {
            add(at, e, true);
            throw new GivenUp();
        } catch (RuntimeException e) {
            if (errors.size() == before) {
                throw e;
            }
            throw new GivenUp();
        }
    }

    /** Notes that {@code at} names {@code cluster}, for {@link #checkClusters}. */
    void referenceToCluster(ConfigNode at, String cluster) {
        references.add(new Reference(at, cluster));
    }

    /** Records every noted reference to a cluster outside {@code known}. */
    void checkClusters(Set<String> known) {
        for (Reference reference : references) {
            if (!known.contains(reference.cluster())) {
                add(reference.at(), reference.at().error("unknown cluster '" + reference.cluster() + "'"), false);
            }
        }
    }

    /** Throws one exception listing every recorded error in document order; nothing when there is none. */
    void throwIfAny() {
        if (errors.isEmpty()) {
            return;
        }
        List<Recorded> sorted = new ArrayList<>(errors);
        sorted.sort(Comparator.comparing(Recorded::at, ConfigNode.DOCUMENT_ORDER));
        throw new ConfigException(sorted.stream().map(Recorded::message).toList());
    }
}
