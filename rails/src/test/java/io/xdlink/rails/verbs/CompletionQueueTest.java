package io.xdlink.rails.verbs;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Completions come out in order, past a full ring too, and the push listener sees each one already pollable. */
class CompletionQueueTest {

    private static Completion completion(long wrId) {
        return new Completion(wrId, WorkOpcode.SEND, CompletionStatus.SUCCESS, 8, 0, false, 1);
    }

    @Test
    void theListenerRunsAfterEveryPushWithThatCompletionPollable() {
        CompletionQueue cq = new CompletionQueue(null, 2);
        List<Integer> sizesSeen = new ArrayList<>();
        cq.onPush(() -> sizesSeen.add(cq.size()));
        int n = cq.capacity() + 1;
        List<Integer> expected = new ArrayList<>();
        for (int id = 1; id <= n; id++) {
            cq.push(completion(id));
            expected.add(id);
        }
        assertThat(sizesSeen).as("the last goes to the overflow list, still before its listener call")
                .isEqualTo(expected);
        cq.onPush(null);
        cq.push(completion(n + 1));
        assertThat(sizesSeen).as("no listener after it was removed").hasSize(n);
        Completion[] out = new Completion[n + 4];
        assertThat(cq.poll(out)).isEqualTo(n + 1);
        for (int i = 0; i <= n; i++) {
            assertThat(out[i].wrId()).as("completion %d in order", i).isEqualTo(i + 1);
        }
    }
}
