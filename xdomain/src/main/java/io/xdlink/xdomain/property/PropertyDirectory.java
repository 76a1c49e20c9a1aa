package io.xdlink.xdomain.property;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A property directory: the root of a block (no UUID) or a sub-directory (with its UUID), and its entries in order.
 *
 * @param uuid       the directory's UUID, {@code null} for the root
 * @param properties the entries, in block order
 */
public record PropertyDirectory(UUID uuid, List<Property> properties) {

    public PropertyDirectory {
        properties = List.copyOf(properties);
    }

    public static PropertyDirectory root(List<Property> properties) {
        return new PropertyDirectory(null, properties);
    }

    public boolean isRoot() {
        return uuid == null;
    }

    /** The first entry with this key and type, as Linux's {@code tb_property_find} finds it. */
    public <T extends Property> Optional<T> find(String key, Class<T> type) {
        for (Property p : properties) {
            if (type.isInstance(p) && p.key().equals(key)) {
                return Optional.of(type.cast(p));
            }
        }
        return Optional.empty();
    }

    /** The value of immediate {@code key}, if present. */
    public Optional<Integer> immediate(String key) {
        return find(key, Property.Immediate.class).map(Property.Immediate::value);
    }

    /** The string of text {@code key}, if present. */
    public Optional<String> text(String key) {
        return find(key, Property.Text.class).map(Property.Text::text);
    }

    /** The sub-directory {@code key}, if present. */
    public Optional<PropertyDirectory> directory(String key) {
        return find(key, Property.Directory.class).map(Property.Directory::directory);
    }

    /** This directory with {@code property} appended. */
    public PropertyDirectory with(Property property) {
        List<Property> list = new ArrayList<>(properties);
        list.add(property);
        return new PropertyDirectory(uuid, list);
    }

    /** This directory without the first entry equal to {@code property}. */
    public PropertyDirectory without(Property property) {
        List<Property> list = new ArrayList<>(properties);
        list.remove(property);
        return new PropertyDirectory(uuid, list);
    }
}
