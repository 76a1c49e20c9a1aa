/*
 * The seam between the per-version C trampolines and Java: one version-neutral table of entry points that Java
 * fills with FFM upcall stubs. Java's side of this table is io.xdlink.ccl.abi.NativeEntryPoints; the two must
 * agree slot for slot (XDL_API_REVISION guards that).
 *
 * Every entry returns an int64: a negative value is minus an ncclResult code; zero or more is the result (an
 * opaque handle id, a count, or a flag). A handle id is never 0 or 1, so NULL keeps meaning "not yet" and the
 * 0x1 that NCCL may leave in *request is never mistaken for one.
 */
#ifndef XDLINK_CCL_BRIDGE_H
#define XDLINK_CCL_BRIDGE_H

#include "ccl_net_abi.h"

#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <time.h>

#define XDL_API_REVISION 7
#define XDL_MAX_RECVS 8

/*
 * Java mirrors the state of every request it handed out (io.xdlink.ccl.abi.RequestMirror), so test() can answer
 * "not done" without entering Java while nothing can have changed, and "done" with the sizes once the request is
 * done: a host polls test() in a loop, and an upcall costs far more than these few loads. Entries are indexed like handle ids (generation << 32 | index << 3 | kind)
 * through a directory of pages that are allocated once and never freed; a comm's attention words
 * (io.xdlink.ccl.engine.Attention) are pooled and never freed either, so any id, even a stale or made-up one, reads
 * mapped memory.
 */
#define XDL_KIND_SEND 3
#define XDL_KIND_MEMORY 5
#define XDL_KIND_REQUEST 6
#define XDL_REQUEST_PENDING 1
#define XDL_SEND_COMM 3
#define XDL_REQUEST_DONE 4
#define XDL_REQUEST_REPORTED 5
#define XDL_MIRROR_SIZES 8
#define XDL_STATUS_PAGE_BITS 12
#define XDL_STATUS_PAGES (1 << 14)

typedef struct {
    /*
     * A request: generation << 32 | XDL_REQUEST_PENDING while in flight, | XDL_REQUEST_DONE once done with its
     * sizes below (the shim turns it into XDL_REQUEST_REPORTED when it tells the host; Java then forgets the
     * request at the next call on its comm); a send comm: generation << 32 | XDL_SEND_COMM while open. Anything
     * else: ask Java.
     */
    _Atomic uint64_t state;
    /* Address of the request's comm's xdl_attention_t. */
    _Atomic uint64_t attention;
    /* Once DONE: how many sizes the request reports (1 for a send, its buffer count for a receive), and they. */
    _Atomic int32_t count;
    _Atomic int32_t sizes[XDL_MIRROR_SIZES];
    int32_t padding[3];
} xdl_request_status_t;

_Static_assert(sizeof(xdl_request_status_t) == 64, "RequestMirror.ENTRY_BYTES");

/* Bits of xdl_attention_t.drive: the comm's own progress needs Java; the host's calls step the engine. */
#define XDL_DRIVE_PROGRESS 1
#define XDL_DRIVE_HOST_POLLS 2

typedef struct {
    _Atomic int64_t arrivals; /* completions the comm's connection produced */
    _Atomic int64_t seen;     /* arrivals Java had drained at its last look */
    _Atomic int64_t drive;    /* non-zero while the comm must run whatever arrives (XDL_DRIVE_* bits) */
    _Atomic int64_t starved;  /* a send comm: non-zero while it had no advertised receive at its last look */
    _Atomic uint64_t park;    /* address of the comm's engine's xdl_park_t, or 0 */
} xdl_attention_t;

/*
 * An engine's rail's next read, left to the host's looks while the engine has nothing else to do
 * (io.xdlink.rails.ParkedRead): a test() that would otherwise enter Java only to read the socket and find nothing
 * makes the read itself. The state word orders everything: a reader takes ARMED to BUSY, reads the other words, makes
 * one non-blocking read, and leaves ARMED (nothing there) or FILLED (bytes, or a failure for Java to meet). Java only
 * writes the other words while the state is IDLE, and closes the socket only after taking the block back, so the
 * descriptor read is open and the socket's own. The block is never freed.
 */
#define XDL_PARK_IDLE 0
#define XDL_PARK_ARMED 1
#define XDL_PARK_BUSY 2
#define XDL_PARK_FILLED 3
/* The most sockets an engine's watch names (ParkedRead.WATCH_FDS). */
#define XDL_WATCH_FDS 8

typedef struct {
    _Atomic int32_t state;
    int32_t fd;
    uint64_t address;   /* where the bytes go */
    int64_t room;       /* the most bytes to read */
    int64_t deadline;   /* CLOCK_MONOTONIC nanoseconds: past it, Java runs the engine's timers */
    int64_t filled;     /* bytes the read brought, or -1 when it failed or found the stream's end */
    _Atomic int64_t empty_reads;   /* reads that found nothing */
    _Atomic int64_t filling_reads; /* reads that brought bytes or failed */
    int64_t wait_after; /* nanoseconds a host's looks find nothing before one waits on the socket; 0: none waits */
    /*
     * An engine that reads several rails parks no read; instead it names their sockets, which a host thread whose
     * looks found nothing may wait on until the deadline (see xdl_quiet_nap). Java writes the words below between
     * two steps of the version, odd while it writes; a reader that finds the version odd, or changed once it read
     * them, waits on nothing. The wait only polls the sockets, never reads them, so a stale name costs at most a
     * wake-up too early or a wait to the deadline.
     */
    _Atomic int64_t watch_version;
    _Atomic int64_t watch_deadline; /* CLOCK_MONOTONIC nanoseconds; 0: no watch */
    _Atomic int32_t watch_count;
    _Atomic int32_t watch_fds[XDL_WATCH_FDS];
    int32_t watch_padding[3];
} xdl_park_t;

_Static_assert(sizeof(xdl_park_t) == 128, "ParkedRead.BYTES");

typedef struct {
    int64_t (*init)(int32_t abi_version, uint64_t comm_id, int32_t traffic_class);
    int64_t (*devices)(void);
    int64_t (*properties)(int32_t abi_version, int32_t dev, void *props);
    int64_t (*listen)(uint64_t ctx, int32_t dev, void *handle);
    int64_t (*connect)(uint64_t ctx, int32_t dev, int32_t traffic_class, void *handle);
    int64_t (*accept)(uint64_t listen_comm);
    int64_t (*reg_mr)(uint64_t comm, void *data, uint64_t size, int32_t type);
    int64_t (*dereg_mr)(uint64_t comm, uint64_t mhandle);
    /*
     * The pointers of the entry points a host calls per message and per look (isend, irecv, test) go as addresses:
     * an upcall makes a Java object of every pointer argument, and these run hundreds of thousands of times a
     * second. Java reads and writes through them as the pointer types say (void *data; void **data, uint64_t *sizes,
     * int32_t *tags, void **mhandles; int32_t *sizes).
     */
    int64_t (*isend)(uint64_t send_comm, uint64_t data, uint64_t size, int32_t tag, uint64_t mhandle);
    int64_t (*irecv)(uint64_t recv_comm, int32_t n, uint64_t data, uint64_t sizes, uint64_t tags, uint64_t mhandles);
    int64_t (*iflush)(uint64_t recv_comm, int32_t n, void **data, int32_t *sizes, void **mhandles);
    int64_t (*test)(uint64_t request, uint64_t sizes);
    int64_t (*close_send)(uint64_t send_comm);
    int64_t (*close_recv)(uint64_t recv_comm);
    int64_t (*close_listen)(uint64_t listen_comm);
    int64_t (*finalize)(uint64_t ctx);
    /* XDL_STATUS_PAGES page addresses (0 until used) of 1 << XDL_STATUS_PAGE_BITS xdl_request_status_t each. */
    _Atomic uint64_t *request_pages;
} xdl_java_api_t;

/* The mirror entry of the handle id of this kind, or NULL (ask Java). */
static inline xdl_request_status_t *xdl_entry(const xdl_java_api_t *api, uint64_t id, uint64_t kind) {
    if ((id & 7) != kind) {
        return NULL;
    }
    uint64_t index = (id >> 3) & 0x1FFFFFFF;
    if (index >= ((uint64_t)XDL_STATUS_PAGES << XDL_STATUS_PAGE_BITS)) {
        return NULL;
    }
    uint64_t page = atomic_load_explicit(&api->request_pages[index >> XDL_STATUS_PAGE_BITS], memory_order_acquire);
    if (page == 0) {
        return NULL;
    }
    return (xdl_request_status_t *)(uintptr_t)page + (index & ((1u << XDL_STATUS_PAGE_BITS) - 1));
}

/*
 * The attention words of the handle id of this kind whose mirror entry holds exactly its generation with state, or
 * NULL (ask Java).
 */
static inline xdl_attention_t *xdl_mirrored(const xdl_java_api_t *api, uint64_t id, uint64_t kind, uint64_t state) {
    xdl_request_status_t *s = xdl_entry(api, id, kind);
    if (s == NULL || atomic_load_explicit(&s->state, memory_order_acquire) != ((id & 0xFFFFFFFF00000000ull) | state)) {
        return NULL;
    }
    return (xdl_attention_t *)(uintptr_t)atomic_load_explicit(&s->attention, memory_order_relaxed);
}

/* True while Java's last look at the comm still holds: no completion since and nothing only its progress moves. */
static inline int xdl_quiet(xdl_attention_t *a) {
    return atomic_load_explicit(&a->arrivals, memory_order_acquire) == atomic_load_explicit(&a->seen, memory_order_acquire)
           && atomic_load_explicit(&a->drive, memory_order_acquire) == 0;
}

/* A wait of ns nanoseconds (more than 0), for ppoll. */
static inline struct timespec xdl_span(int64_t ns) {
    return (struct timespec){.tv_sec = (time_t)(ns / 1000000000), .tv_nsec = (long)(ns % 1000000000)};
}

/*
 * Whether the calling thread's looks have found nothing for the block's wait_after by now; a first look that found
 * nothing notes when (*quiet_since), and none ever has when the block's looks never wait or quiet_since is NULL.
 */
static inline int xdl_quiet_long(const xdl_park_t *p, int64_t now, int64_t *quiet_since) {
    if (quiet_since == NULL || p->wait_after <= 0) {
        return 0;
    }
    if (*quiet_since == 0) {
        *quiet_since = now;
        return 0;
    }
    return now - *quiet_since >= p->wait_after;
}

/*
 * A look that found nothing on a socket whose calling thread's looks have found nothing for the block's wait_after
 * (since *quiet_since, CLOCK_MONOTONIC nanoseconds, 0 while they find things) waits on the socket until bytes come or
 * the engine's deadline, instead of returning at once: 1 when bytes came, 0 when not. On a virtual machine whose two
 * processors are both busy with a host thread each that polls, the guest's timers were seen to wait up to 100 ms
 * for an interrupt, and a stream stopped with them; a plain socket whose ends poll stopped the same way, one whose
 * ends block did not. A thread that waits gives its processor back, and the interrupts come. The block stays BUSY
 * meanwhile: Java taking the rail back waits as long, never past the deadline it set.
 */
static inline int xdl_quiet_wait(xdl_park_t *p, int64_t now, int64_t *quiet_since) {
    int64_t left = p->deadline - now;
    if (!xdl_quiet_long(p, now, quiet_since) || left <= 0) {
        return 0;
    }
    struct pollfd pfd = {.fd = p->fd, .events = POLLIN};
    struct timespec wait = xdl_span(left);
    return ppoll(&pfd, 1, &wait, NULL) > 0 ? 1 : 0;
}

/*
 * The parked read of a comm's engine, for a look at a comm that nothing reached since Java's last look and that is
 * driven only because the host polls: 0 when the socket had nothing (the look is over), -1 when Java must look (no
 * block armed, the engine's deadline has come, or the read brought bytes or failed, which Java takes at its next
 * read). quiet_since is the calling thread's note of when its looks began to find nothing (see xdl_quiet_wait), or
 * NULL for a look that must not wait.
 */
static inline int xdl_parked_look(xdl_attention_t *a, int64_t *quiet_since) {
    if (atomic_load_explicit(&a->drive, memory_order_acquire) != XDL_DRIVE_HOST_POLLS
        || atomic_load_explicit(&a->arrivals, memory_order_acquire) != atomic_load_explicit(&a->seen, memory_order_acquire)) {
        return -1;
    }
    xdl_park_t *p = (xdl_park_t *)(uintptr_t)atomic_load_explicit(&a->park, memory_order_acquire);
    if (p == NULL || atomic_load_explicit(&p->state, memory_order_relaxed) != XDL_PARK_ARMED) {
        return -1;
    }
    int32_t expected = XDL_PARK_ARMED;
    if (!atomic_compare_exchange_strong_explicit(&p->state, &expected, XDL_PARK_BUSY, memory_order_acquire,
                                                 memory_order_relaxed)) {
        return -1;
    }
    struct timespec now;
    int64_t t = clock_gettime(CLOCK_MONOTONIC, &now) != 0 ? INT64_MAX : (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
    if (t >= p->deadline) {
        atomic_store_explicit(&p->state, XDL_PARK_ARMED, memory_order_release);
        return -1;
    }
    int saved = errno;
    ssize_t n = recv(p->fd, (void *)(uintptr_t)p->address, (size_t)p->room, MSG_DONTWAIT);
    int error = n < 0 ? errno : 0;
    if ((error == EAGAIN || error == EWOULDBLOCK) && xdl_quiet_wait(p, t, quiet_since)) {
        n = recv(p->fd, (void *)(uintptr_t)p->address, (size_t)p->room, MSG_DONTWAIT);
        error = n < 0 ? errno : 0;
    }
    errno = saved;
    if (error == EAGAIN || error == EWOULDBLOCK || error == EINTR) {
        atomic_fetch_add_explicit(&p->empty_reads, 1, memory_order_relaxed);
        atomic_store_explicit(&p->state, XDL_PARK_ARMED, memory_order_release);
        return error == EINTR ? -1 : 0;
    }
    if (quiet_since != NULL) {
        *quiet_since = 0;
    }
    p->filled = n > 0 ? (int64_t)n : -1;
    atomic_fetch_add_explicit(&p->filling_reads, 1, memory_order_relaxed);
    atomic_store_explicit(&p->state, XDL_PARK_FILLED, memory_order_release);
    return -1;
}

/*
 * test() without Java where the mirror can answer: 0 when the request is surely not done; 1 when it is done, after
 * claiming the report (DONE -> REPORTED, once) and writing its sizes to sizes (unless NULL); -1 means ask Java
 * (failed, already reported or released, an id the mirror cannot vouch for, a comm with news since its last look).
 * The sizes are read before the claim: Java writes them before it publishes DONE and never again while the entry
 * holds this generation, and a successful claim proves it still did.
 */
static inline int xdl_test_mirrored(const xdl_java_api_t *api, uint64_t id, int32_t *sizes, int64_t *quiet_since) {
    xdl_request_status_t *s = xdl_entry(api, id, XDL_KIND_REQUEST);
    if (s == NULL) {
        return -1;
    }
    uint64_t generation = id & 0xFFFFFFFF00000000ull;
    uint64_t state = atomic_load_explicit(&s->state, memory_order_acquire);
    if (state == (generation | XDL_REQUEST_PENDING)) {
        xdl_attention_t *a = (xdl_attention_t *)(uintptr_t)atomic_load_explicit(&s->attention, memory_order_relaxed);
        return xdl_quiet(a) ? 0 : xdl_parked_look(a, quiet_since);
    }
    if (state != (generation | XDL_REQUEST_DONE)) {
        return -1;
    }
    int32_t count = atomic_load_explicit(&s->count, memory_order_relaxed);
    if (count < 1 || count > XDL_MIRROR_SIZES) {
        return -1;
    }
    int32_t copy[XDL_MIRROR_SIZES];
    for (int32_t i = 0; i < count; i++) {
        copy[i] = atomic_load_explicit(&s->sizes[i], memory_order_relaxed);
    }
    uint64_t expected = state;
    if (!atomic_compare_exchange_strong_explicit(&s->state, &expected, generation | XDL_REQUEST_REPORTED,
                                                 memory_order_acq_rel, memory_order_acquire)) {
        return -1;
    }
    if (sizes != NULL) {
        for (int32_t i = 0; i < count; i++) {
            sizes[i] = copy[i];
        }
    }
    return 1;
}

/* How long a host thread naps after a look Java answered with nothing, once its looks found nothing for a while. */
#define XDL_QUIET_NAP_NS 50000

/*
 * Waits, until its deadline, on the sockets the engine's watch names (POLLIN): 1 when one had bytes, 0 when the
 * deadline came, and -1 when no watch holds (none armed, Java rewriting it, its deadline past).
 */
static inline int xdl_watch_wait(const xdl_park_t *p, int64_t now) {
    int64_t version = atomic_load_explicit(&p->watch_version, memory_order_acquire);
    if (version & 1) {
        return -1;
    }
    int64_t left = atomic_load_explicit(&p->watch_deadline, memory_order_relaxed) - now;
    int32_t count = atomic_load_explicit(&p->watch_count, memory_order_relaxed);
    if (count < 1 || count > XDL_WATCH_FDS) {
        return -1;
    }
    struct pollfd fds[XDL_WATCH_FDS];
    for (int32_t i = 0; i < count; i++) {
        fds[i] = (struct pollfd){.fd = atomic_load_explicit(&p->watch_fds[i], memory_order_relaxed), .events = POLLIN};
    }
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&p->watch_version, memory_order_relaxed) != version || left <= 0) {
        return -1;
    }
    struct timespec wait = xdl_span(left);
    return ppoll(fds, (nfds_t)count, &wait, NULL) > 0 ? 1 : 0;
}

/*
 * After a test() of request id that Java answered "not done": a thread whose looks have found nothing done and no
 * bytes for its engine's wait_after (see xdl_quiet_wait) gives its processor back. An engine on several rails leaves
 * no read parked, so its looks never wait on a socket there; in the two-host lab on two cables such looks kept both
 * processors busy through 100 ms stops. When the engine's last cycle named its rails' sockets (the watch), the thread
 * waits on them until bytes come or the engine's next timer; otherwise it sleeps XDL_QUIET_NAP_NS. Bytes that come
 * start the count again, as a look's own read does. A request the mirror cannot place, or an engine whose looks
 * never wait, gives nothing back.
 */
static inline void xdl_quiet_nap(const xdl_java_api_t *api, uint64_t id, int64_t *quiet_since) {
    xdl_request_status_t *s = xdl_entry(api, id, XDL_KIND_REQUEST);
    xdl_attention_t *a = s == NULL ? NULL
            : (xdl_attention_t *)(uintptr_t)atomic_load_explicit(&s->attention, memory_order_relaxed);
    xdl_park_t *p = a == NULL ? NULL : (xdl_park_t *)(uintptr_t)atomic_load_explicit(&a->park, memory_order_acquire);
    struct timespec now;
    if (p == NULL || p->wait_after <= 0 || clock_gettime(CLOCK_MONOTONIC, &now) != 0) {
        return;
    }
    int64_t t = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
    if (xdl_quiet_long(p, t, quiet_since)) {
        int saved = errno;
        int woke = xdl_watch_wait(p, t);
        if (woke < 0) {
            struct timespec nap = {.tv_sec = 0, .tv_nsec = XDL_QUIET_NAP_NS};
            nanosleep(&nap, NULL);
        } else if (woke > 0) {
            *quiet_since = 0;
        }
        errno = saved;
    }
}

/*
 * True when an isend on the send comm with handle id would surely be told to retry: the comm had no advertised
 * receive left at its last look and has had no completion since (an advertisement arrives as one). The send's own
 * arguments are checked by Java on the isend that finds a buffer, so a bad one is reported then, not earlier. The
 * seen word is read before starved: Java writes starved before it publishes a look through seen. A comm driven only
 * because the host polls is as sure once its engine's parked read found nothing.
 */
static inline int xdl_surely_starved(const xdl_java_api_t *api, uint64_t send_comm) {
    xdl_attention_t *a = xdl_mirrored(api, send_comm, XDL_KIND_SEND, XDL_SEND_COMM);
    if (a == NULL) {
        return 0;
    }
    if (xdl_quiet(a)) {
        return atomic_load_explicit(&a->starved, memory_order_acquire) != 0;
    }
    /* Driven only because the host polls: the engine's parked read finding nothing brought no advertisement. */
    return atomic_load_explicit(&a->drive, memory_order_acquire) == XDL_DRIVE_HOST_POLLS
           && atomic_load_explicit(&a->arrivals, memory_order_acquire) == atomic_load_explicit(&a->seen, memory_order_acquire)
           && atomic_load_explicit(&a->starved, memory_order_acquire) != 0 && xdl_parked_look(a, NULL) == 0;
}

/* The table Java registered, or NULL before registration. */
const xdl_java_api_t *xdl_api(void);

/* Makes sure Java runs and has registered; logs why not and returns an error otherwise. */
ccl_result_t xdl_ensure_java(void);

/* Attaches the calling thread to the JVM for good (detached when it exits); cheap after the first call. */
void xdl_attach_thread(void);

/* Remembers the host's logger (the newest one wins; NULL keeps the old one). */
void xdl_set_logger(ccl_logger_t logger);

/* Logs one already formatted line through the host's logger. */
void xdl_log(int32_t level, uint64_t flags, const char *file, int32_t line, const char *message);

/* Turns an entry's int64 into an ncclResult. */
static inline ccl_result_t xdl_status(int64_t r) {
    if (r >= 0) {
        return ccl_success;
    }
    return (r < -7) ? ccl_internal_error : (ccl_result_t)(-r);
}

#endif
