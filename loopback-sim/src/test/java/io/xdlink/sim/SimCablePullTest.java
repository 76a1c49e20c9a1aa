package io.xdlink.sim;

import io.xdlink.rails.RailsSettings;
import io.xdlink.rails.verbs.Completion;
import io.xdlink.rails.verbs.CompletionStatus;
import io.xdlink.rails.verbs.MemoryRegion;
import io.xdlink.rails.verbs.WorkOpcode;
import io.xdlink.xdomain.Generation;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cable pulled in the middle of a transfer, through the real rails engine: the outstanding requests fail with an
 * error, nothing arrives twice or damaged, and traffic runs again after the cable is plugged back.
 */
class SimCablePullTest {
    private static final int MESSAGES = 64;
    private static final long SIZE = 256 << 10;

    @Test
    void aPullFailsWhatIsOutstandingDamagesNothingAndAReplugCarriesTrafficAgain() throws Exception {
        VirtualFabric v = new VirtualFabric();
        SimHost a = v.fabric.addHost(HostSpec.named("a").withRings(1024, 256));
        SimHost b = v.fabric.addHost(HostSpec.named("b").withRings(1024, 256));
        SimCable cable = v.fabric.connect(a, b, CableSpec.of(Generation.GEN3));
        v.settle();
        RailsSettings settings = RailsSettings.of("peer_timeout_ms", "500");
        try (SimDevices d = new SimDevices(v, a, b, settings, 21).rail(cable, 0).connect()) {
            MemoryRegion src = d.source(d.pdA, MESSAGES * SIZE);
            MemoryRegion dst = d.target(d.pdB, MESSAGES * SIZE);
            for (int m = 0; m < MESSAGES; m++) {
                assertThat(d.qpB.postRecv(1000 + m, null, 0, 0)).isTrue();
            }
            for (int m = 0; m < MESSAGES; m++) {
                assertThat(d.qpA.postWriteWithImm(m, src, m * SIZE, SIZE, dst.address() + m * SIZE, dst.rkey(), m))
                        .isTrue();
            }
            // Run until a quarter of the messages have arrived, then pull the cable mid-transfer.
            List<Completion> atB = new ArrayList<>();
            d.driver.runUntil(() -> {
                for (Completion c; (c = d.cqB.poll()) != null; ) {
                    atB.add(c);
                }
                return atB.size() >= MESSAGES / 4;
            }, 10 * VirtualFabric.S);
            assertThat(atB).hasSizeGreaterThanOrEqualTo(MESSAGES / 4);
            cable.unplug();

            // Every request A posted completes exactly once: successes first, then errors, none left hanging.
            List<Completion> atA = new ArrayList<>();
            d.driver.runUntil(() -> {
                for (Completion c; (c = d.cqA.poll()) != null; ) {
                    atA.add(c);
                }
                return atA.size() == MESSAGES;
            }, 60 * VirtualFabric.S);
            assertThat(atA).extracting(Completion::wrId)
                    .containsExactlyElementsOf(java.util.stream.LongStream.range(0, MESSAGES).boxed().toList());
            int firstError = 0;
            while (firstError < MESSAGES && atA.get(firstError).isSuccess()) {
                firstError++;
            }
            assertThat(firstError).as("the pull came mid-transfer").isBetween(MESSAGES / 4 - 1, MESSAGES - 1);
            assertThat(atA.subList(firstError, MESSAGES)).allSatisfy(c -> assertThat(c.status())
                    .isIn(CompletionStatus.RETRY_EXCEEDED_ERROR, CompletionStatus.WR_FLUSH_ERROR));
            d.driver.runFor(VirtualFabric.S);
            for (Completion c; (c = d.cqB.poll()) != null; ) {
                atB.add(c);
            }

            // Nothing arrived twice, out of order or damaged; every byte is either untouched or the right one.
            List<Integer> imms = atB.stream().filter(c -> c.opcode() == WorkOpcode.RECV_WRITE_WITH_IMM
                    && c.isSuccess()).map(Completion::imm).toList();
            assertThat(imms).doesNotHaveDuplicates().isSorted();
            assertThat(imms.size()).isGreaterThanOrEqualTo(firstError);
            for (int m : imms) {
                assertThat(dst.segment().asSlice(m * SIZE, SIZE).mismatch(src.segment().asSlice(m * SIZE, SIZE)))
                        .as("message %d", m).isEqualTo(-1);
            }
            for (long i = 0; i < MESSAGES * SIZE; i++) {
                byte got = dst.segment().get(ValueLayout.JAVA_BYTE, i);
                if (got != 0 && got != src.segment().get(ValueLayout.JAVA_BYTE, i)) {
                    throw new AssertionError("byte " + i + " damaged: " + got);
                }
            }

            // Plugged back: the hosts enumerate again, new rails and a new connection carry traffic.
            cable.plug();
            v.settle();
            assertThat(a.fabric().peers()).hasSize(1);
            d.rail(cable, 0).connect();
            assertThat(d.writeRate(true, 4L << 20)).isGreaterThan(30_000);
        }
    }
}
