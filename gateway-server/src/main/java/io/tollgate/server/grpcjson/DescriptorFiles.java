package io.tollgate.server.grpcjson;

import com.google.protobuf.AnyProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DurationProto;
import com.google.protobuf.EmptyProto;
import com.google.protobuf.FieldMaskProto;
import com.google.protobuf.StructProto;
import com.google.protobuf.TimestampProto;
import com.google.protobuf.WrappersProto;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Links {@link FileDescriptorProto}s, as a descriptor set or server reflection gives them, into
 * {@link FileDescriptor}s: each file is built after the files it imports. An import neither source
 * gave is taken from protobuf's own well-known types when it is one of them.
 */
final class DescriptorFiles {

    private static final Map<String, FileDescriptor> WELL_KNOWN = wellKnown();

    private DescriptorFiles() {
    }

    /**
     * The files of {@code protos}, linked.
     *
     * @throws IllegalArgumentException when a file imports one that is missing, or does not link
     */
    static List<FileDescriptor> link(Collection<FileDescriptorProto> protos) {
        Map<String, FileDescriptorProto> byName = new LinkedHashMap<>();
        for (FileDescriptorProto proto : protos) {
            byName.putIfAbsent(proto.getName(), proto);
        }
        Map<String, FileDescriptor> built = new HashMap<>();
        for (String name : byName.keySet()) {
            build(name, byName, built, new HashSet<>());
        }
        return new ArrayList<>(built.values());
    }

    private static FileDescriptor build(String name, Map<String, FileDescriptorProto> byName,
            Map<String, FileDescriptor> built, Set<String> visiting) {
        FileDescriptor done = built.get(name);
        if (done != null) {
            return done;
        }
        FileDescriptorProto proto = byName.get(name);
        if (proto == null) {
            FileDescriptor known = WELL_KNOWN.get(name);
            if (known == null) {
                throw new IllegalArgumentException("the descriptors lack " + name);
            }
            return known;
        }
        if (!visiting.add(name)) {
            throw new IllegalArgumentException("the descriptors import each other in a cycle at " + name);
        }
        FileDescriptor[] dependencies = new FileDescriptor[proto.getDependencyCount()];
        for (int i = 0; i < dependencies.length; i++) {
            dependencies[i] = build(proto.getDependency(i), byName, built, visiting);
        }
        try {
            FileDescriptor file = FileDescriptor.buildFrom(proto, dependencies);
            built.put(name, file);
            return file;
        } catch (DescriptorValidationException e) {
            throw new IllegalArgumentException(name + " does not link: " + e.getMessage(), e);
        }
    }

    private static Map<String, FileDescriptor> wellKnown() {
        Map<String, FileDescriptor> files = new HashMap<>();
        for (FileDescriptor file : List.of(AnyProto.getDescriptor(), DurationProto.getDescriptor(),
                EmptyProto.getDescriptor(), FieldMaskProto.getDescriptor(), StructProto.getDescriptor(),
                TimestampProto.getDescriptor(), WrappersProto.getDescriptor())) {
            files.put(file.getName(), file);
        }
        return Map.copyOf(files);
    }
}
