package io.xdlink.cli.doctor;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import org.junit.jupiter.api.AfterEach;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.util.List;

/**
 * What every check's test shares: a fake host tree on an in-memory file system, closed after each test, and the
 * check under test run over it.
 */
abstract class CheckTestBase {
    final FileSystem fs = Jimfs.newFileSystem(Configuration.unix());
    final HostFixture fx = new HostFixture(fs.getPath("/"));

    /** The check under test. */
    abstract Check check();

    @AfterEach
    void closeFileSystem() throws IOException {
        fs.close();
    }

    List<CheckResult> run() {
        return check().run(fx.host());
    }

    /** The one result with {@code id}; fails when the check gave none. */
    CheckResult result(String id) {
        return run().stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
    }
}
