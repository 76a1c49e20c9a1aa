package io.xdlink.ccl.abi;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The struct layout reader on small texts: C's offsets, padding and sizes, and clear refusals of the rest. */
class CStructLayoutsTest {

    private static Map<String, CStructLayouts.Layout> parse(String text) {
        return CStructLayouts.parse("t.h", text, CHeaderConstants.parse("t.h", text, "XDL_"));
    }

    @Test
    void membersArePaddedToTheirSizeAndTheStructToItsLargestMember() {
        Map<String, CStructLayouts.Layout> s = parse("""
                #define XDL_N 3
                typedef struct {
                    uint8_t flag;          /* 0 */
                    _Atomic uint64_t word; /* 8: padded */
                    int32_t count;         /* 16 */
                    _Atomic int32_t sizes[XDL_N]; // 20, 24, 28
                    uint16_t tail[2];      /* 32 */
                } xdl_t;                   /* 36, rounded to 40 */
                struct tagged { int a; const char *name; void (*fn)(int x, void **y); };
                """);
        assertThat(s.get("xdl_t").offsets()).containsExactly(Map.entry("flag", 0L), Map.entry("word", 8L),
                Map.entry("count", 16L), Map.entry("sizes", 20L), Map.entry("tail", 32L));
        assertThat(s.get("xdl_t").size()).isEqualTo(40);
        assertThat(s.get("tagged").offsets()).containsExactly(Map.entry("a", 0L), Map.entry("name", 8L),
                Map.entry("fn", 16L));
        assertThat(s.get("tagged").size()).isEqualTo(24);
    }

    @Test
    void whatIsNotReadHereIsRefusedByStructAndMember() {
        assertThatThrownBy(() -> parse("typedef struct { float3 v; } xdl_t;"))
                .hasMessage("t.h line 1: struct xdl_t: member v: type 'float3' is not one read here");
        assertThatThrownBy(() -> parse("typedef struct { int a : 3; } xdl_t;"))
                .hasMessage("t.h line 1: struct xdl_t: 'int a : 3' is not a member read here");
        assertThatThrownBy(() -> parse("typedef struct { int a[N]; } xdl_t;")).hasMessage("t.h line 1: struct"
                + " xdl_t: member a: array length 'N' is neither a literal nor a constant the header declares");
        assertThatThrownBy(() -> parse("typedef struct { int a[0]; } xdl_t;"))
                .hasMessageContaining("member a: array length 0");
        assertThatThrownBy(() -> parse("typedef struct { int a[99999999]; } xdl_t;"))
                .hasMessageContaining("array length '99999999' is neither");
        assertThatThrownBy(() -> parse("typedef struct { int a; int a; } xdl_t;"))
                .hasMessageContaining("member a declared twice");
        assertThatThrownBy(() -> parse("typedef struct { int a } xdl_t;"))
                .hasMessage("t.h line 1: struct xdl_t: 'int a' does not end with ';'");
        assertThatThrownBy(() -> parse("typedef struct { } xdl_t;")).hasMessageContaining("no members");
        assertThatThrownBy(() -> parse("typedef struct { struct { int a; } in; } xdl_t;"))
                .hasMessageContaining("a nested struct or union is not read here");
        assertThatThrownBy(() -> parse("\ntypedef struct {\n int a;\n")).hasMessage("t.h line 2: a struct that is"
                + " never closed");
        assertThatThrownBy(() -> parse("struct s { int a; };\nstruct s { int b; };"))
                .hasMessageContaining("struct s: declared again");
        assertThat(parse("struct s;\nstruct { int a; } unnamed_variable;\n")).isEmpty();
    }
}
