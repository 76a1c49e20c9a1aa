package io.xdlink.ccl.abi;

import io.xdlink.ccl.CclNet;
import io.xdlink.ccl.abi.HandleTable.Kind;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One contract between the shim and Java: every {@code XDL_} constant ccl_bridge.h declares (defines and enum values)
 * either has its Java counterpart here, which must hold the same value, or is listed as C-only with the reason. A
 * constant changed on one side only, or added to the header without a word about Java, fails with both values named.
 */
class BridgeHeaderContractTest {
    static final Path HEADER = Path.of("src/main/c/ccl_bridge.h");

    /** A Java constant: where it lives, for the message, and its value. */
    record Java(String where, long value) {
    }

    /** Each C constant and the Java constant of the same meaning. */
    static final Map<String, Java> MAPPED = Map.ofEntries(
            entry("XDL_API_REVISION", new Java("NativeBridge.API_REVISION", NativeBridge.API_REVISION)),
            entry("XDL_MAX_RECVS", new Java("CclNet.MAX_RECVS", CclNet.MAX_RECVS)),
            entry("XDL_KIND_SEND", new Java("HandleTable.Kind.SEND.code()", Kind.SEND.code())),
            entry("XDL_KIND_MEMORY", new Java("HandleTable.Kind.MEMORY.code()", Kind.MEMORY.code())),
            entry("XDL_KIND_REQUEST", new Java("HandleTable.Kind.REQUEST.code()", Kind.REQUEST.code())),
            entry("XDL_REQUEST_PENDING", new Java("RequestMirror.PENDING", RequestMirror.PENDING)),
            entry("XDL_SEND_COMM", new Java("RequestMirror.SEND_COMM", RequestMirror.SEND_COMM)),
            entry("XDL_REQUEST_DONE", new Java("RequestMirror.DONE", RequestMirror.DONE)),
            entry("XDL_REQUEST_REPORTED", new Java("RequestMirror.REPORTED", RequestMirror.REPORTED)),
            entry("XDL_MIRROR_SIZES", new Java("RequestMirror.MAX_SIZES", RequestMirror.MAX_SIZES)),
            entry("XDL_STATUS_PAGE_BITS", new Java("RequestMirror.PAGE_BITS", RequestMirror.PAGE_BITS)),
            entry("XDL_STATUS_PAGES", new Java("RequestMirror.PAGES", RequestMirror.PAGES)));

    /**
     * C constants with no Java counterpart, each with the reason. None today: every constant in the header is one
     * Java writes or reads too.
     */
    static final Map<String, String> C_ONLY = Map.of();

    /** What is wrong between {@code header} and the tables above; empty when they agree. */
    static List<String> disagreements(Map<String, CHeaderConstants.Constant> header) {
        List<String> wrong = new ArrayList<>();
        for (CHeaderConstants.Constant c : header.values()) {
            Java j = MAPPED.get(c.name());
            if (j != null && j.value() != c.value()) {
                wrong.add(c.name() + ": ccl_bridge.h line " + c.line() + " says " + c.value() + ", Java's "
                        + j.where() + " says " + j.value());
            } else if (j == null && !C_ONLY.containsKey(c.name())) {
                wrong.add(c.name() + " (" + c.value() + ", ccl_bridge.h line " + c.line() + ") has no Java constant"
                        + " mapped to it in BridgeHeaderContractTest.MAPPED and is not listed in C_ONLY with a reason");
            }
        }
        for (String name : MAPPED.keySet()) {
            if (!header.containsKey(name)) {
                wrong.add(name + " is mapped to Java's " + MAPPED.get(name).where() + " but ccl_bridge.h no longer"
                        + " declares it");
            }
        }
        for (String name : C_ONLY.keySet()) {
            if (!header.containsKey(name)) {
                wrong.add(name + " is listed as C-only but ccl_bridge.h no longer declares it");
            }
            if (MAPPED.containsKey(name)) {
                wrong.add(name + " is both mapped and listed as C-only");
            }
        }
        return wrong;
    }

    @Test
    void everyConstantOfTheHeaderHasItsJavaValueOrAReason() throws IOException {
        Map<String, CHeaderConstants.Constant> header = CHeaderConstants.parse("ccl_bridge.h",
                Files.readString(HEADER), "XDL_");
        assertThat(header).as("constants found in %s", HEADER.toAbsolutePath()).isNotEmpty();
        assertThat(disagreements(header)).as("ccl_bridge.h against Java").isEmpty();
    }

    @Test
    void aValueChangedOnOneSideOrAConstantAddedWithoutAWordIsNamed() {
        String header = """
                #define XDL_API_REVISION 99
                #define XDL_MAX_RECVS 8
                #define XDL_NEW_THING 0x10
                """;
        List<String> wrong = disagreements(CHeaderConstants.parse("ccl_bridge.h", header, "XDL_"));
        assertThat(wrong).contains("XDL_API_REVISION: ccl_bridge.h line 1 says 99, Java's NativeBridge.API_REVISION"
                + " says " + NativeBridge.API_REVISION);
        assertThat(wrong).anySatisfy(w -> assertThat(w).startsWith("XDL_NEW_THING (16, ccl_bridge.h line 3) has no"
                + " Java constant"));
        assertThat(wrong).anySatisfy(w -> assertThat(w).startsWith("XDL_KIND_SEND is mapped to Java's"
                + " HandleTable.Kind.SEND.code() but ccl_bridge.h no longer declares it"));
        assertThat(wrong).noneSatisfy(w -> assertThat(w).startsWith("XDL_MAX_RECVS"));
    }
}
