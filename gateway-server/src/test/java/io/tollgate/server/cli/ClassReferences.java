package io.tollgate.server.cli;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The classes a class file names in its constant pool (class entries and the types in field and
 * method descriptors), as internal names ({@code a/b/C}): what the JVM may need to resolve when
 * the class runs, read without loading it.
 */
final class ClassReferences {

    private static final Pattern TYPE_IN_DESCRIPTOR = Pattern.compile("L([\\w/$]+);");

    private ClassReferences() {
    }

    static Set<String> of(InputStream classFile) throws IOException {
        DataInputStream in = new DataInputStream(classFile);
        in.skipBytes(8); // magic, minor and major version
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        int[] classNames = new int[count];
        int[] descriptors = new int[count];
        int classes = 0;
        int types = 0;
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 7 -> classNames[classes++] = in.readUnsignedShort();
                case 16 -> descriptors[types++] = in.readUnsignedShort(); // MethodType
                case 12 -> { // NameAndType: name, then descriptor
                    in.skipBytes(2);
                    descriptors[types++] = in.readUnsignedShort();
                }
                case 8, 19, 20 -> in.skipBytes(2); // String, Module, Package
                case 15 -> in.skipBytes(3); // MethodHandle
                case 3, 4, 9, 10, 11, 17, 18 -> in.skipBytes(4);
                case 5, 6 -> { // long and double take two slots
                    in.skipBytes(8);
                    i++;
                }
                default -> throw new IOException("constant pool tag " + tag + " at entry " + i);
            }
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < classes; i++) {
            String name = utf8[classNames[i]];
            if (name.startsWith("[")) {
                addTypes(name, names);
            } else {
                names.add(name);
            }
        }
        for (int i = 0; i < types; i++) {
            addTypes(utf8[descriptors[i]], names);
        }
        return names;
    }

    private static void addTypes(String descriptor, Set<String> names) {
        Matcher type = TYPE_IN_DESCRIPTOR.matcher(descriptor);
        while (type.find()) {
            names.add(type.group(1));
        }
    }
}
