/*
 * ccl_bridge.h's parked read, as a host's test() makes it (xdl_parked_look), against a real socket pair: when it
 * reads, what it leaves in the block, when it leaves everything to Java without reading, when a look waits on
 * the socket because the thread's looks have found nothing for a while, and when a thread waits on the sockets an
 * engine on several rails names instead. Prints one line per
 * check ("ok ..." or "FAIL ...") and exits non-zero when any failed. Built and run by ParkedLookTest.
 */
#define _GNU_SOURCE /* ppoll, for ccl_bridge.h */
#include <pthread.h>
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

static int writer_fd;
static _Atomic int64_t written_at;

/* Writes one byte 20 ms after it starts, and notes when: what a waiting look must wake for. */
static void *late_byte(void *unused) {
    (void)unused;
    struct timespec t = {0, 20 * 1000000};
    nanosleep(&t, NULL);
    if (write(writer_fd, "w", 1) != 1) {
        perror("write");
    }
    atomic_store(&written_at, now_ns());
    return NULL;
}

/* The looks of a thread that has found nothing for wait_after: the next one waits, for bytes or the deadline. */
static void quiet_looks(int pair[2]) {
    int64_t quiet = 0, wait_after = 1000 * 1000000LL;
    park.wait_after = wait_after;
    park.deadline = now_ns() + 5LL * 1000000000;
    atomic_store(&park.state, XDL_PARK_ARMED);
    int64_t t0 = now_ns();
    check(xdl_parked_look(&attention, &quiet) == 0 && quiet >= t0, "a first look that finds nothing notes when");
    check(xdl_parked_look(&attention, &quiet) == 0 && now_ns() - t0 < wait_after / 2,
          "and looks within wait_after of it return at once");
    quiet = now_ns() - wait_after - 1;
    int64_t before = now_ns();
    park.deadline = before + 30 * 1000000LL;
    int r = xdl_parked_look(&attention, &quiet);
    int64_t took = now_ns() - before;
    check(r == 0 && took >= 30 * 1000000LL && took < 2000 * 1000000LL && atomic_load(&park.state) == XDL_PARK_ARMED,
          "a look after wait_after of nothing waits until the engine's deadline, and finds nothing");
    writer_fd = pair[1];
    pthread_t writer;
    if (pthread_create(&writer, NULL, late_byte, NULL) != 0) {
        check(0, "a writer thread starts");
        return;
    }
    park.deadline = now_ns() + 5LL * 1000000000;
    before = now_ns();
    r = xdl_parked_look(&attention, &quiet);
    int64_t after = now_ns();
    pthread_join(writer, NULL);
    /* A look that began before the byte was written and brought it waited for it; one that did not wait finds
     * nothing. A look that began after it (the writer ran first) reads it at once. */
    check(r == -1 && park.filled == 1 && buffer[0] == 'w' && quiet == 0 && after - before < 2LL * 1000000000
          && (before >= atomic_load(&written_at) || after >= atomic_load(&written_at)),
          "a waiting look wakes for the bytes that come, hands them to Java and starts afresh");
    atomic_store(&park.state, XDL_PARK_ARMED);
    quiet = now_ns() - wait_after - 1;
    park.wait_after = 0;
    before = now_ns();
    check(xdl_parked_look(&attention, &quiet) == 0 && now_ns() - before < 1000 * 1000000LL,
          "with wait_after 0 no look waits");
    park.wait_after = wait_after;
    before = now_ns();
    check(xdl_parked_look(&attention, NULL) == 0 && now_ns() - before < 1000 * 1000000LL,
          "nor does a look that must not wait (an isend's)");
    park.wait_after = 0;
    park.deadline = now_ns() + 60LL * 1000000000;
}

/*
 * The nap after a look Java answered with nothing (xdl_quiet_nap): only once the thread's looks have found nothing
 * for the request's engine's wait_after, and never for a request the mirror cannot place.
 */
static void quiet_naps(void) {
    static xdl_request_status_t page[1 << XDL_STATUS_PAGE_BITS];
    static _Atomic uint64_t pages[XDL_STATUS_PAGES];
    xdl_java_api_t api = {.request_pages = pages};
    atomic_store(&page[3].attention, (uint64_t)(uintptr_t)&attention);
    uint64_t request = (7ull << 32) | (3u << 3) | XDL_KIND_REQUEST;
    int64_t quiet = 0, t0 = now_ns();
    park.wait_after = 1000 * 1000000LL;
    xdl_quiet_nap(&api, request, &quiet);
    check(quiet == 0, "no page of entries: the mirror cannot place the request, and nothing is noted");
    atomic_store(&pages[0], (uint64_t)(uintptr_t)page);
    xdl_quiet_nap(&api, request, &quiet);
    check(quiet >= t0, "a first look Java answered with nothing notes when");
    /* A nap is XDL_QUIET_NAP_NS: 2,000 looks that each napped would take 100 ms, and without naps a few. */
    int64_t before = now_ns();
    for (int i = 0; i < 2000; i++) {
        xdl_quiet_nap(&api, request, &quiet);
    }
    check(now_ns() - before < 2000LL * XDL_QUIET_NAP_NS / 2 && quiet >= t0, "within wait_after of it no nap");
    park.wait_after = 1000000;
    quiet = now_ns() - 2000000;
    before = now_ns();
    xdl_quiet_nap(&api, request, &quiet);
    check(now_ns() - before >= XDL_QUIET_NAP_NS, "after wait_after of nothing the thread naps");
    park.wait_after = 0;
    before = now_ns();
    for (int i = 0; i < 2000; i++) {
        xdl_quiet_nap(&api, request, &quiet);
    }
    check(now_ns() - before < 2000LL * XDL_QUIET_NAP_NS / 2, "with wait_after 0 it never naps");
}

/* Writes the watch's words as ParkedRead.watch does: between an odd and the next even version. */
static void watch(int32_t count, const int *fds, int64_t deadline) {
    int64_t v = atomic_load(&park.watch_version);
    atomic_store(&park.watch_version, v + 1);
    atomic_store(&park.watch_deadline, deadline);
    atomic_store(&park.watch_count, count);
    for (int32_t i = 0; i < count; i++) {
        atomic_store(&park.watch_fds[i], fds[i]);
    }
    atomic_store(&park.watch_version, v + 2);
}

/*
 * The quiet thread's wait on the sockets an engine on several rails names (the watch): instead of the nap, until
 * bytes come on any of them or the engine's deadline; never a read; the nap again when no watch holds.
 */
static void quiet_watches(void) {
    static xdl_request_status_t page[1 << XDL_STATUS_PAGE_BITS];
    static _Atomic uint64_t pages[XDL_STATUS_PAGES];
    xdl_java_api_t api = {.request_pages = pages};
    atomic_store(&pages[0], (uint64_t)(uintptr_t)page);
    atomic_store(&page[3].attention, (uint64_t)(uintptr_t)&attention);
    uint64_t request = (7ull << 32) | (3u << 3) | XDL_KIND_REQUEST;
    int a[2], b[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, a) != 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, b) != 0) {
        check(0, "two more socket pairs");
        return;
    }
    int fds[2] = {a[0], b[0]};
    park.wait_after = 1000000;
    int64_t quiet = now_ns() - 2000000, before = now_ns();
    watch(2, fds, before + 30 * 1000000LL);
    xdl_quiet_nap(&api, request, &quiet);
    int64_t took = now_ns() - before;
    check(took >= 30 * 1000000LL && took < 2000 * 1000000LL && quiet != 0,
          "a quiet thread waits on the watched sockets until the engine's deadline when nothing comes");

    writer_fd = b[1];
    pthread_t writer;
    if (pthread_create(&writer, NULL, late_byte, NULL) != 0) {
        check(0, "a writer thread starts");
        return;
    }
    before = now_ns();
    watch(2, fds, before + 5LL * 1000000000);
    xdl_quiet_nap(&api, request, &quiet);
    int64_t after = now_ns();
    pthread_join(writer, NULL);
    char c = 0;
    check(after - before < 2LL * 1000000000 && quiet == 0 && recv(b[0], &c, 1, MSG_DONTWAIT) == 1 && c == 'w',
          "a byte on the second socket wakes it, starts the count again and stays in the socket for Java");

    /* No watch holds: the nap, far shorter than the 5 s the words name. */
    quiet = now_ns() - 2000000;
    watch(2, fds, now_ns() + 5LL * 1000000000);
    atomic_fetch_add(&park.watch_version, 1);
    before = now_ns();
    xdl_quiet_nap(&api, request, &quiet);
    took = now_ns() - before;
    check(took >= XDL_QUIET_NAP_NS && took < 2500 * 1000000LL, "a watch Java is writing (odd version): the nap");
    atomic_fetch_add(&park.watch_version, 1);
    watch(2, fds, now_ns() - 1);
    before = now_ns();
    xdl_quiet_nap(&api, request, &quiet);
    took = now_ns() - before;
    check(took >= XDL_QUIET_NAP_NS && took < 2500 * 1000000LL, "a watch past its deadline: the nap");
    watch(0, fds, now_ns() + 5LL * 1000000000);
    before = now_ns();
    xdl_quiet_nap(&api, request, &quiet);
    took = now_ns() - before;
    check(took >= XDL_QUIET_NAP_NS && took < 2500 * 1000000LL, "a watch taken back (no sockets): the nap");
    watch(2, fds, now_ns() + 5LL * 1000000000);
    park.wait_after = 0;
    before = now_ns();
    for (int i = 0; i < 20; i++) {
        xdl_quiet_nap(&api, request, &quiet);
    }
    check(now_ns() - before < 2500 * 1000000LL, "with wait_after 0 no thread waits on a watch");
    watch(0, fds, 0);
    close(a[0]);
    close(a[1]);
    close(b[0]);
    close(b[1]);
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
    check(xdl_parked_look(&attention, NULL) == 0, "a look at an empty socket answers not done");
    check(atomic_load(&park.state) == XDL_PARK_ARMED && park.empty_reads == 1, "and leaves the block armed");
    check(errno == EDOM, "and the host's errno as it was");

    if (write(pair[1], "hello, parked", 13) != 13) {
        perror("write");
        return 2;
    }
    check(xdl_parked_look(&attention, NULL) == -1, "a look that brings bytes leaves the rest to Java");
    check(atomic_load(&park.state) == XDL_PARK_FILLED && park.filled == 8 && park.filling_reads == 1,
          "filled with as many bytes as the room allowed");
    check(memcmp(buffer, "hello, p", 8) == 0 && buffer[8] == 0, "into the armed place, and no further");
    check(xdl_parked_look(&attention, NULL) == -1 && reads() == 2, "a filled block is Java's: no second read");

    atomic_store(&park.state, XDL_PARK_ARMED);
    atomic_store(&attention.arrivals, 6);
    check(xdl_parked_look(&attention, NULL) == -1 && reads() == 2,
          "news since Java's last look: Java looks, nothing read");
    atomic_store(&attention.arrivals, 5);
    atomic_store(&attention.drive, XDL_DRIVE_HOST_POLLS | XDL_DRIVE_PROGRESS);
    check(xdl_parked_look(&attention, NULL) == -1 && reads() == 2,
          "a comm whose own progress needs Java: nothing read");
    atomic_store(&attention.drive, 0);
    check(xdl_parked_look(&attention, NULL) == -1 && reads() == 2,
          "a comm nobody drives is the mirror's: nothing read");
    atomic_store(&attention.drive, XDL_DRIVE_HOST_POLLS);
    park.deadline = now_ns() - 1;
    check(xdl_parked_look(&attention, NULL) == -1 && reads() == 2 && atomic_load(&park.state) == XDL_PARK_ARMED,
          "past the engine's deadline: Java runs its timers, the block stays armed, nothing read");
    park.deadline = far;
    atomic_store(&attention.park, 0);
    check(xdl_parked_look(&attention, NULL) == -1 && reads() == 2, "no block: Java looks");
    atomic_store(&attention.park, (uint64_t)(uintptr_t)&park);
    atomic_store(&park.state, XDL_PARK_IDLE);
    check(xdl_parked_look(&attention, NULL) == -1 && reads() == 2, "a block Java took back: Java looks");
    atomic_store(&park.state, XDL_PARK_BUSY);
    check(xdl_parked_look(&attention, NULL) == -1 && reads() == 2, "a read under way elsewhere: Java looks");

    atomic_store(&park.state, XDL_PARK_ARMED);
    check(xdl_parked_look(&attention, NULL) == -1 && park.filled == 5 && memcmp(buffer, "arked", 5) == 0,
          "the rest of the stream comes in order");
    quiet_looks(pair);
    quiet_naps();
    quiet_watches();

    atomic_store(&park.state, XDL_PARK_ARMED);
    close(pair[1]);
    check(xdl_parked_look(&attention, NULL) == -1 && atomic_load(&park.state) == XDL_PARK_FILLED && park.filled == -1,
          "the stream's end is left for Java to meet");
    close(pair[0]);
    return failures == 0 ? 0 : 1;
}
