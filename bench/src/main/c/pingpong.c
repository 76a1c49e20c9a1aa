/*
 * The 8-byte ping-pong through a plugin's ncclNetPlugin_v12 calls, driven from C as a collective library's proxy
 * thread drives them: the calling thread pings, a thread of this library echoes, and both call the table's
 * functions directly, so no Java downcall sits between a host and the plugin. The Java benchmark sets the
 * connections up and times this way beside its Java API way (io.xdlink.bench.CclLatency).
 *
 * Both loops wait as the Java API way's do: the pinging thread yields after every call that could not go on (as a
 * proxy thread yields when a pass made no progress); the echo spins 100 times, yields 10 times, then sleeps a
 * millisecond, the benchmark's Java echo thread's idle strategy.
 *
 * Every entry point returns 0 or a negative number and never exits the process.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define XPP_EXPORT __attribute__((visibility("default")))

typedef int (*isend_fn)(void *send_comm, void *data, size_t size, int tag, void *mhandle, void *phandle,
                        void **request);
typedef int (*irecv_fn)(void *recv_comm, int n, void **data, size_t *sizes, int *tags, void **mhandles,
                        void **phandles, void **request);
typedef int (*test_fn)(void *request, int *done, int *sizes);

/* One side of the ping-pong: where it sends and receives, its 8-byte buffers and their memory handles. */
typedef struct {
    void *send_comm;
    void *recv_comm;
    void *out;
    void *out_mh;
    void *in;
    void *in_mh;
    void *receive_request;
    void *send_request;
    _Atomic int64_t tests; /* written by the side's own thread only, read by the benchmark's */
    _Atomic int64_t sends;
    int failure; /* the first ncclResult that was not success, else 0 */
} xpp_side_t;

typedef struct {
    isend_fn isend;
    irecv_fn irecv;
    test_fn test;
    /* Each side's own lines: the two threads write their sides' counters and requests on every call. */
    _Alignas(128) xpp_side_t near;
    _Alignas(128) xpp_side_t far;
    _Alignas(128) pthread_t echo;
    atomic_int running;
    atomic_int echo_failure;
} xpp_t;

/* One more on a counter only its side's thread writes: no locked instruction on the path being timed. */
static void bump(_Atomic int64_t *counter) {
    atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + 1, memory_order_relaxed);
}

static int checked(xpp_side_t *s, int rc) {
    if (rc != 0 && s->failure == 0) {
        s->failure = rc;
    }
    return rc == 0;
}

static int post_receive(xpp_t *p, xpp_side_t *s) {
    void *data[1] = {s->in};
    size_t sizes[1] = {8};
    int tags[1] = {0};
    void *mhs[1] = {s->in_mh};
    void *phandles[1] = {NULL};
    s->receive_request = NULL;
    return checked(s, p->irecv(s->recv_comm, 1, data, sizes, tags, mhs, phandles, &s->receive_request))
           && s->receive_request != NULL;
}

static int post_send(xpp_t *p, xpp_side_t *s) {
    bump(&s->sends);
    s->send_request = NULL;
    return checked(s, p->isend(s->send_comm, s->out, 8, 0, s->out_mh, NULL, &s->send_request))
           && s->send_request != NULL;
}

static int is_done(xpp_t *p, xpp_side_t *s, void *request) {
    int done = 0;
    bump(&s->tests);
    return checked(s, p->test(request, &done, NULL)) && done;
}

/* Waits as the Java echo's idle strategy does: spin, then yield, then sleep a millisecond. */
static void echo_idle(int *idle_cycles) {
    int n = (*idle_cycles)++;
    if (n < 100) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    } else if (n < 110) {
        sched_yield();
    } else {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
}

static void *echo_main(void *arg) {
    xpp_t *p = arg;
    xpp_side_t *s = &p->far;
    int stage = 0;
    int idle_cycles = 0;
    while (atomic_load_explicit(&p->running, memory_order_acquire)) {
        int advanced;
        switch (stage) {
            case 0: advanced = post_receive(p, s); break;
            case 1: advanced = is_done(p, s, s->receive_request); break;
            case 2: advanced = post_send(p, s); break;
            default: advanced = is_done(p, s, s->send_request); break;
        }
        if (s->failure != 0) {
            atomic_store_explicit(&p->echo_failure, s->failure, memory_order_release);
            break;
        }
        if (advanced) {
            stage = (stage + 1) % 4;
            idle_cycles = 0;
        } else {
            echo_idle(&idle_cycles);
        }
    }
    return NULL;
}

/*
 * Sets up a ping-pong over two connected pairs and starts the echo thread. fns holds the table's isend, irecv and
 * test; near and far each hold send comm, receive comm, out buffer, its memory handle, in buffer, its memory handle.
 * Returns the ping-pong, or NULL when memory or a thread could not be had.
 */
XPP_EXPORT xpp_t *xdl_pingpong_open(void *const fns[3], void *const near[6], void *const far[6]) {
    xpp_t *p = aligned_alloc(128, (sizeof(*p) + 127) & ~(size_t)127);
    if (p == NULL) {
        return NULL;
    }
    memset(p, 0, sizeof(*p));
    p->isend = (isend_fn)fns[0];
    p->irecv = (irecv_fn)fns[1];
    p->test = (test_fn)fns[2];
    xpp_side_t *sides[2] = {&p->near, &p->far};
    void *const *from[2] = {near, far};
    for (int i = 0; i < 2; i++) {
        sides[i]->send_comm = from[i][0];
        sides[i]->recv_comm = from[i][1];
        sides[i]->out = from[i][2];
        sides[i]->out_mh = from[i][3];
        sides[i]->in = from[i][4];
        sides[i]->in_mh = from[i][5];
    }
    atomic_store(&p->running, 1);
    if (pthread_create(&p->echo, NULL, echo_main, p) != 0) {
        free(p);
        return NULL;
    }
    return p;
}

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* 0 while both sides are well; else what xdl_pingpong_run returns for the first failure. */
static int failed(xpp_t *p) {
    if (p->near.failure != 0) {
        return -p->near.failure;
    }
    int echo = atomic_load_explicit(&p->echo_failure, memory_order_acquire);
    return echo != 0 ? -100 - echo : 0;
}

/*
 * Times n round trips on the calling thread into out_ns. Returns 0; a negative ncclResult when a call failed here;
 * -100 - result when the echo thread's did (it has stopped, so the run cannot go on).
 */
XPP_EXPORT int xdl_pingpong_run(xpp_t *p, int n, int64_t *out_ns) {
    xpp_side_t *s = &p->near;
    for (int i = 0; i < n; i++) {
        int64_t t0 = now_ns();
        /* Each step is tried until it goes on, yielding in between; a failed call ends the run. */
        while (!post_receive(p, s)) {
            int rc = failed(p);
            if (rc != 0) {
                return rc;
            }
            sched_yield();
        }
        while (!post_send(p, s)) {
            int rc = failed(p);
            if (rc != 0) {
                return rc;
            }
            sched_yield();
        }
        while (!is_done(p, s, s->send_request)) {
            int rc = failed(p);
            if (rc != 0) {
                return rc;
            }
            sched_yield();
        }
        while (!is_done(p, s, s->receive_request)) {
            int rc = failed(p);
            if (rc != 0) {
                return rc;
            }
            sched_yield();
        }
        int echo = atomic_load_explicit(&p->echo_failure, memory_order_acquire);
        if (echo != 0) {
            return -100 - echo;
        }
        out_ns[i] = now_ns() - t0;
    }
    return 0;
}

/*
 * test() and isend() calls both sides made so far (isend retries included). The echo thread keeps testing while it
 * waits for the next ping, so read between runs the count is current, not final.
 */
XPP_EXPORT void xdl_pingpong_counts(xpp_t *p, int64_t out[2]) {
    out[0] = atomic_load_explicit(&p->near.tests, memory_order_relaxed)
             + atomic_load_explicit(&p->far.tests, memory_order_relaxed);
    out[1] = atomic_load_explicit(&p->near.sends, memory_order_relaxed)
             + atomic_load_explicit(&p->far.sends, memory_order_relaxed);
}

/*
 * Processor nanoseconds per test() of a request that nothing completes, over n calls from this thread; negative
 * when a call failed or completed it.
 */
XPP_EXPORT double xdl_pingpong_test_cost(void *test, void *request, int n) {
    test_fn fn = (test_fn)test;
    struct timespec a;
    struct timespec b;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    for (int i = 0; i < n; i++) {
        int done = 0;
        if (fn(request, &done, NULL) != 0 || done) {
            return -1;
        }
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    return ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / n;
}

/* Stops the echo thread and frees the ping-pong; the connections stay the caller's. */
XPP_EXPORT void xdl_pingpong_close(xpp_t *p) {
    if (p == NULL) {
        return;
    }
    atomic_store_explicit(&p->running, 0, memory_order_release);
    pthread_join(p->echo, NULL);
    free(p);
}
