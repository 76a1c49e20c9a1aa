package io.xdlink.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SendPipeTest {

    @Test
    void partsCoverTheMessageContiguouslyAndTagsKeepRankAndPart() {
        for (long bytes : new long[] {2, 3, 4, 4095, 524_288}) {
            for (int group = 1; group <= 8; group++) {
                if (bytes < group) {
                    continue;
                }
                assertThat(SendPipe.partOffset(bytes, group, 0)).isZero();
                assertThat(SendPipe.partOffset(bytes, group, group)).isEqualTo(bytes);
                for (int g = 0; g < group; g++) {
                    assertThat(SendPipe.partOffset(bytes, group, g + 1)).isGreaterThanOrEqualTo(
                            SendPipe.partOffset(bytes, group, g));
                }
            }
        }
        assertThat(SendPipe.tag(31, 0)).isEqualTo(31);
        assertThat(SendPipe.tag(31, 1)).isNotEqualTo(SendPipe.tag(31, 0)).isNotEqualTo(SendPipe.tag(30, 1));
    }
}
