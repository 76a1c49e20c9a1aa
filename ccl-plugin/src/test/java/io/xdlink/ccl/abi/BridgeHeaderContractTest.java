package io.xdlink.ccl.abi;

import io.xdlink.ccl.CclNet;
import io.xdlink.ccl.abi.HandleTable.Kind;
import io.xdlink.ccl.engine.Attention;
import io.xdlink.rails.ParkedRead;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One contract between the shim and Java: every {@code XDL_} constant ccl_bridge.h declares (defines and enum
 * values), and every member offset and size of the structs it shares with Java, either has its Java counterpart
 * here, which must hold the same value, or is listed as C-only with the reason; the entry points of
 * {@code xdl_java_api_t} are NativeBridge's slots, slot for slot. A value changed on one side only, or a constant or
 * member added to the header without a word about Java, fails with the name and both values.
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
            entry("XDL_STATUS_PAGES", new Java("RequestMirror.PAGES", RequestMirror.PAGES)),
            entry("XDL_DRIVE_PROGRESS", new Java("Attention.DRIVE_PROGRESS", Attention.DRIVE_PROGRESS)),
            entry("XDL_DRIVE_HOST_POLLS", new Java("Attention.DRIVE_HOST_POLLS", Attention.DRIVE_HOST_POLLS)),
            entry("XDL_PARK_IDLE", new Java("ParkedRead.IDLE", ParkedRead.IDLE)),
            entry("XDL_PARK_ARMED", new Java("ParkedRead.ARMED", ParkedRead.ARMED)),
            entry("XDL_PARK_BUSY", new Java("ParkedRead.BUSY", ParkedRead.BUSY)),
            entry("XDL_PARK_FILLED", new Java("ParkedRead.FILLED", ParkedRead.FILLED)),
            entry("XDL_WATCH_FDS", new Java("ParkedRead.WATCH_FDS", ParkedRead.WATCH_FDS)));

    /**
     * C constants with no Java counterpart, each with the reason: only the shim's own timing, which Java never sees.
     */
    static final Map<String, String> C_ONLY = Map.of(
            "XDL_QUIET_NAP_NS", "how long the shim's own host thread naps; Java never reads or writes it");

    /** Each member offset ({@code struct.member}) and size ({@code sizeof(struct)}) and its Java counterpart. */
    static final Map<String, Java> LAYOUT = Map.ofEntries(
            entry("xdl_request_status_t.state", new Java("RequestMirror (an entry's first word)", 0)),
            entry("xdl_request_status_t.attention", new Java("RequestMirror.ATTENTION", RequestMirror.ATTENTION)),
            entry("xdl_request_status_t.count", new Java("RequestMirror.COUNT", RequestMirror.COUNT)),
            entry("xdl_request_status_t.sizes", new Java("RequestMirror.SIZES", RequestMirror.SIZES)),
            entry("sizeof(xdl_request_status_t)", new Java("RequestMirror.ENTRY_BYTES", RequestMirror.ENTRY_BYTES)),
            entry("xdl_attention_t.arrivals", new Java("Attention.ARRIVALS", Attention.ARRIVALS)),
            entry("xdl_attention_t.seen", new Java("Attention.SEEN", Attention.SEEN)),
            entry("xdl_attention_t.drive", new Java("Attention.DRIVE", Attention.DRIVE)),
            entry("xdl_attention_t.starved", new Java("Attention.STARVED", Attention.STARVED)),
            entry("xdl_attention_t.park", new Java("Attention.PARK", Attention.PARK)),
            entry("sizeof(xdl_attention_t)", new Java("Attention.BYTES", Attention.BYTES)),
            entry("xdl_park_t.state", new Java("ParkedRead.STATE", ParkedRead.STATE)),
            entry("xdl_park_t.fd", new Java("ParkedRead.DESCRIPTOR", ParkedRead.DESCRIPTOR)),
            entry("xdl_park_t.address", new Java("ParkedRead.ADDRESS", ParkedRead.ADDRESS)),
            entry("xdl_park_t.room", new Java("ParkedRead.ROOM", ParkedRead.ROOM)),
            entry("xdl_park_t.deadline", new Java("ParkedRead.DEADLINE", ParkedRead.DEADLINE)),
            entry("xdl_park_t.filled", new Java("ParkedRead.FILLED_BYTES", ParkedRead.FILLED_BYTES)),
            entry("xdl_park_t.empty_reads", new Java("ParkedRead.EMPTY_READS", ParkedRead.EMPTY_READS)),
            entry("xdl_park_t.filling_reads", new Java("ParkedRead.FILLING_READS", ParkedRead.FILLING_READS)),
            entry("xdl_park_t.wait_after", new Java("ParkedRead.WAIT_AFTER", ParkedRead.WAIT_AFTER)),
            entry("xdl_park_t.watch_version", new Java("ParkedRead.WATCH_VERSION", ParkedRead.WATCH_VERSION)),
            entry("xdl_park_t.watch_deadline", new Java("ParkedRead.WATCH_DEADLINE", ParkedRead.WATCH_DEADLINE)),
            entry("xdl_park_t.watch_count", new Java("ParkedRead.WATCH_COUNT", ParkedRead.WATCH_COUNT)),
            entry("xdl_park_t.watch_fds", new Java("ParkedRead.WATCH_DESCRIPTORS", ParkedRead.WATCH_DESCRIPTORS)),
            entry("sizeof(xdl_park_t)", new Java("ParkedRead.BYTES", ParkedRead.BYTES)),
            entry("xdl_java_api_t.request_pages", new Java("NativeBridge.requestPagesOffset()",
                    NativeBridge.requestPagesOffset())),
            entry("sizeof(xdl_java_api_t)", new Java("NativeBridge.tableBytes()", NativeBridge.tableBytes())));

    /** Offsets and sizes with no Java counterpart, each with the reason. */
    static final Map<String, String> LAYOUT_C_ONLY = Map.of(
            "xdl_request_status_t.padding", "fills an entry to one cache line; nothing reads it",
            "xdl_park_t.watch_padding", "fills the watch to one cache line; nothing reads it");

    /** The one entry point named differently on the two sides, and why. */
    static final Map<String, String> SLOT_NAMED_OTHERWISE = Map.of(
            "finalize", "finalizeContext"); // Object.finalize is not a name to reuse for a static method

    /** What is wrong between the header's {@code constants} and the tables above; empty when they agree. */
    static List<String> disagreements(Map<String, CHeaderConstants.Constant> constants) {
        Map<String, Long> values = new LinkedHashMap<>();
        Map<String, String> where = new LinkedHashMap<>();
        for (CHeaderConstants.Constant c : constants.values()) {
            values.put(c.name(), c.value());
            where.put(c.name(), "ccl_bridge.h line " + c.line());
        }
        return compare(values, where, MAPPED, "MAPPED", C_ONLY, "C_ONLY");
    }

    /** What is wrong between the header's struct {@code layouts} and Java; empty when they agree. */
    static List<String> layoutDisagreements(Map<String, CStructLayouts.Layout> layouts) {
        Map<String, Long> values = new LinkedHashMap<>();
        Map<String, String> where = new LinkedHashMap<>();
        for (CStructLayouts.Layout l : layouts.values()) {
            values.put("sizeof(" + l.name() + ")", l.size());
            where.put("sizeof(" + l.name() + ")", "ccl_bridge.h");
            l.offsets().forEach((member, offset) -> {
                values.put(l.name() + "." + member, offset);
                where.put(l.name() + "." + member, "ccl_bridge.h");
            });
        }
        List<String> wrong = new ArrayList<>(slotDisagreements(layouts.get("xdl_java_api_t"), values));
        wrong.addAll(compare(values, where, LAYOUT, "LAYOUT", LAYOUT_C_ONLY, "LAYOUT_C_ONLY"));
        return wrong;
    }

    /**
     * The entry points of {@code api}, in order, against NativeBridge's slots: same names (snake case in C, camel
     * case in Java), each at its slot's offset. Removes the entry points it checked from {@code values}.
     */
    private static List<String> slotDisagreements(CStructLayouts.Layout api, Map<String, Long> values) {
        if (api == null) {
            return List.of("ccl_bridge.h no longer declares xdl_java_api_t");
        }
        List<String> wrong = new ArrayList<>();
        List<String> slots = api.offsets().keySet().stream().filter(m -> !m.equals("request_pages")).toList();
        List<String> asJava = slots.stream().map(BridgeHeaderContractTest::camelCase).toList();
        if (!asJava.equals(NativeBridge.slotMethods())) {
            wrong.add("xdl_java_api_t's entry points " + slots + " are not NativeBridge's slots "
                    + NativeBridge.slotMethods() + ", slot for slot");
        }
        for (int i = 0; i < slots.size(); i++) {
            long offset = api.offsets().get(slots.get(i));
            if (offset != 8L * i) {
                wrong.add("xdl_java_api_t." + slots.get(i) + ": ccl_bridge.h puts it at " + offset
                        + ", NativeBridge's slot " + i + " is at " + 8L * i);
            }
            values.remove("xdl_java_api_t." + slots.get(i));
        }
        return wrong;
    }

    private static String camelCase(String snake) {
        if (SLOT_NAMED_OTHERWISE.containsKey(snake)) {
            return SLOT_NAMED_OTHERWISE.get(snake);
        }
        StringBuilder out = new StringBuilder();
        boolean up = false;
        for (char ch : snake.toCharArray()) {
            if (ch == '_') {
                up = true;
            } else {
                out.append(up ? Character.toUpperCase(ch) : ch);
                up = false;
            }
        }
        return out.toString();
    }

    private static List<String> compare(Map<String, Long> values, Map<String, String> where, Map<String, Java> mapped,
                                        String mappedName, Map<String, String> cOnly, String cOnlyName) {
        List<String> wrong = new ArrayList<>();
        values.forEach((name, value) -> {
            Java j = mapped.get(name);
            if (j != null && j.value() != value) {
                wrong.add(name + ": " + where.get(name) + " says " + value + ", Java's " + j.where() + " says "
                        + j.value());
            } else if (j == null && !cOnly.containsKey(name)) {
                wrong.add(name + " (" + value + ", " + where.get(name) + ") has no Java constant mapped to it in"
                        + " BridgeHeaderContractTest." + mappedName + " and is not listed in " + cOnlyName
                        + " with a reason");
            }
        });
        for (String name : mapped.keySet()) {
            if (!values.containsKey(name)) {
                wrong.add(name + " is mapped to Java's " + mapped.get(name).where() + " but ccl_bridge.h no longer"
                        + " declares it");
            }
        }
        for (String name : cOnly.keySet()) {
            if (!values.containsKey(name)) {
                wrong.add(name + " is listed as C-only but ccl_bridge.h no longer declares it");
            }
            if (mapped.containsKey(name)) {
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
    void everySharedStructLaysOutAsJavaReadsIt() throws IOException {
        String text = Files.readString(HEADER);
        Map<String, CStructLayouts.Layout> layouts = CStructLayouts.parse("ccl_bridge.h", text,
                CHeaderConstants.parse("ccl_bridge.h", text, "XDL_"));
        assertThat(layouts).containsKeys("xdl_request_status_t", "xdl_attention_t", "xdl_java_api_t");
        assertThat(layoutDisagreements(layouts)).as("ccl_bridge.h's structs against Java").isEmpty();
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

    @Test
    void aMovedMemberOrASlotOutOfOrderIsNamed() {
        String header = """
                typedef struct {
                    _Atomic int64_t seen;
                    _Atomic int64_t arrivals;
                    _Atomic int64_t drive;
                    _Atomic int64_t starved;
                    _Atomic uint64_t park;
                    int64_t spare;
                } xdl_attention_t;
                typedef struct {
                    int64_t (*devices)(void);
                    int64_t (*init)(int32_t abi_version, uint64_t comm_id, int32_t traffic_class);
                    _Atomic uint64_t *request_pages;
                } xdl_java_api_t;
                """;
        List<String> wrong = layoutDisagreements(CStructLayouts.parse("ccl_bridge.h", header, Map.of()));
        assertThat(wrong).contains(
                "xdl_attention_t.seen: ccl_bridge.h says 0, Java's Attention.SEEN says 8",
                "xdl_attention_t.arrivals: ccl_bridge.h says 8, Java's Attention.ARRIVALS says 0",
                "sizeof(xdl_attention_t): ccl_bridge.h says 48, Java's Attention.BYTES says 40");
        assertThat(wrong).anySatisfy(w -> assertThat(w).startsWith("xdl_attention_t.spare (40, ccl_bridge.h) has no"
                + " Java constant mapped to it in BridgeHeaderContractTest.LAYOUT"));
        assertThat(wrong).anySatisfy(w -> assertThat(w).startsWith("xdl_java_api_t's entry points [devices, init]"
                + " are not NativeBridge's slots [init, devices,"));
        assertThat(wrong).anySatisfy(w -> assertThat(w).startsWith("xdl_java_api_t.request_pages: ccl_bridge.h"
                + " says 16, Java's NativeBridge.requestPagesOffset() says 128"));
        assertThat(wrong).anySatisfy(w -> assertThat(w).startsWith("xdl_request_status_t.count is mapped to Java's"
                + " RequestMirror.COUNT but ccl_bridge.h no longer declares it"));
    }
}
