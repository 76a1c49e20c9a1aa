package io.xdlink.rails.testing;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.List;

/**
 * Closes what a test opened, newest first, after each test: rails, listeners, loops and sockets that a failed
 * assertion would otherwise leave open for the next test to trip over. Every one is closed even when an earlier close
 * throws; the first failure fails the test, the others ride along as suppressed. Register it as a field:
 * {@code @RegisterExtension final Closer closer = new Closer();}, then {@code closer.track(...)} what is opened.
 */
public final class Closer implements AfterEachCallback {
    private final List<AutoCloseable> opened = new ArrayList<>();

    /** Closes {@code t} after the test, before whatever was tracked before it; returns it. */
    public <T extends AutoCloseable> T track(T t) {
        opened.add(t);
        return t;
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        Exception first = null;
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        opened.clear();
        if (first != null) {
            throw first;
        }
    }
}
