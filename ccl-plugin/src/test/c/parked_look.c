/*
 * ccl_bridge.h's parked read, as a host's test() makes it (xdl_parked_look), against a real socket pair: when it
 * reads, what it leaves in the block, and when it leaves everything to Java without reading. Prints one line per
 * check ("ok ..." or "FAIL ...") and exits non-zero when any failed. Built and run by ParkedLookTest.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ccl_bridge.h"

static int failures;

static void check(int ok, const char *what) {
    printf("%s %s\n", ok ? "ok" : "FAIL", what);
    failures += !ok;
}

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static xdl_park_t park __attribute__((aligned(64)));
static xdl_attention_t attention;
static char buffer[64];

static int64_t reads(void) {
    return atomic_load(&park.empty_reads) + atomic_load(&park.filling_reads);
}

int main(void) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) {
        perror("socketpair");
        return 2;
    }
    int64_t far = now_ns() + 60LL * 1000000000;
    atomic_store(&attention.park, (uint64_t)(uintptr_t)&park);
    atomic_store(&attention.drive, XDL_DRIVE_HOST_POLLS);
    atomic_store(&attention.arrivals, 5);
    atomic_store(&attention.seen, 5);
    park.fd = pair[0];
    park.address = (uint64_t)(uintptr_t)buffer;
    park.room = 8;
    park.deadline = far;
    atomic_store(&park.state, XDL_PARK_ARMED);

    errno = EDOM;
    check(xdl_parked_look(&attention) == 0, "a look at an empty socket answers not done");
    check(atomic_load(&park.state) == XDL_PARK_ARMED && park.empty_reads == 1, "and leaves the block armed");
    check(errno == EDOM, "and the host's errno as it was");

    if (write(pair[1], "hello, parked", 13) != 13) {
        perror("write");
        return 2;
    }
    check(xdl_parked_look(&attention) == -1, "a look that brings bytes leaves the rest to Java");
    check(atomic_load(&park.state) == XDL_PARK_FILLED && park.filled == 8 && park.filling_reads == 1,
          "filled with as many bytes as the room allowed");
    check(memcmp(buffer, "hello, p", 8) == 0 && buffer[8] == 0, "into the armed place, and no further");
    check(xdl_parked_look(&attention) == -1 && reads() == 2, "a filled block is Java's: no second read");

    atomic_store(&park.state, XDL_PARK_ARMED);
    atomic_store(&attention.arrivals, 6);
    check(xdl_parked_look(&attention) == -1 && reads() == 2, "news since Java's last look: Java looks, nothing read");
    atomic_store(&attention.arrivals, 5);
    atomic_store(&attention.drive, XDL_DRIVE_HOST_POLLS | XDL_DRIVE_PROGRESS);
    check(xdl_parked_look(&attention) == -1 && reads() == 2, "a comm whose own progress needs Java: nothing read");
    atomic_store(&attention.drive, 0);
    check(xdl_parked_look(&attention) == -1 && reads() == 2, "a comm nobody drives is the mirror's: nothing read");
    atomic_store(&attention.drive, XDL_DRIVE_HOST_POLLS);
    park.deadline = now_ns() - 1;
    check(xdl_parked_look(&attention) == -1 && reads() == 2 && atomic_load(&park.state) == XDL_PARK_ARMED,
          "past the engine's deadline: Java runs its timers, the block stays armed, nothing read");
    park.deadline = far;
    atomic_store(&attention.park, 0);
    check(xdl_parked_look(&attention) == -1 && reads() == 2, "no block: Java looks");
    atomic_store(&attention.park, (uint64_t)(uintptr_t)&park);
    atomic_store(&park.state, XDL_PARK_IDLE);
    check(xdl_parked_look(&attention) == -1 && reads() == 2, "a block Java took back: Java looks");
    atomic_store(&park.state, XDL_PARK_BUSY);
    check(xdl_parked_look(&attention) == -1 && reads() == 2, "a read under way elsewhere: Java looks");

    atomic_store(&park.state, XDL_PARK_ARMED);
    check(xdl_parked_look(&attention) == -1 && park.filled == 5 && memcmp(buffer, "arked", 5) == 0,
          "the rest of the stream comes in order");
    atomic_store(&park.state, XDL_PARK_ARMED);
    close(pair[1]);
    check(xdl_parked_look(&attention) == -1 && atomic_load(&park.state) == XDL_PARK_FILLED && park.filled == -1,
          "the stream's end is left for Java to meet");
    close(pair[0]);
    return failures == 0 ? 0 : 1;
}
