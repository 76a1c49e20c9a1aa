/*
 * A host for the xdlink network plugin that loads it exactly as NCCL 2.30 does and drives every ABI version's
 * table through the request contract: init, devices, properties, listen/connect/accept with retries, memory
 * registration, 32 grouped receives in flight with tags, test with NULL sizes, the (void*)0x1 request, iflush,
 * closes, finalize, and dlclose followed by a reopen.
 *
 *   plugin_harness threads --speed MBPS [--versions 12,11,...]   two ranks as two threads in this process
 *   plugin_harness listen  --speed MBPS --handle FILE             rank 0 of two processes (receives)
 *   plugin_harness connect --speed MBPS --handle FILE             rank 1 of two processes (sends)
 *   plugin_harness pingpong --iterations N                          8-byte ping-pong latency through the tables
 *   plugin_harness netbench --rank 0|1 --handle FILE [--peer IP] [--sizes 65536,1048576,8388608] [--bytes N]
 *                  [--iterations N] [--rounds N] [--warmup-passes N | --no-warmup] [--plugin-only]    the plugin
 *                  between two processes beside a plain socket, after a warm-up in passes of an eighth of the bytes
 *                  until both processes' JIT compilers are quiet (at most N passes, 8 by default); its first pass
 *                  prints as round 0, the cold figures. --plugin-only leaves the socket's blocks out: the plugin's
 *                  own rates per block, for a profile of it alone or two plugins compared in turns.
 *                  [--socket-cc NAME] gives the plain socket a congestion control (TCP_CONGESTION): cubic by
 *                  default, as xdlink's rails take (tcp_congestion); "" leaves the host's default
 *
 * The plugin comes from NCCL_NET_PLUGIN (default libnccl-net.so), as NCCL finds it. Every check prints one line;
 * the last line is "harness: N passed, M failed" and the exit status is 0 only when nothing failed. Every wait for
 * the other rank (its handle, connect, accept, a request) ends after --deadline SECONDS of wall-clock time.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <unistd.h>

#include "ccl_net_abi.h"

#define RANKS_REQUESTS CCL_NET_MAX_REQUESTS
/*
 * Every wait is bounded in wall-clock time (--deadline SECONDS, 120 by default), never by a count of calls: on a
 * loaded machine, or while the other rank's JVM is still starting cold, each call takes longer and a count that
 * sufficed on an idle machine runs out first.
 */
static double wait_seconds = 120.0;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#define WITHIN(start) (now_s() - (start) < wait_seconds)
#define BUF_BYTES 4096

static atomic_int passed;
static atomic_int failed;
static char hostname[64];

/* ---- NCCL's logger, in NCCL's words ---- */

static void nccl_logger(ccl_log_level_t level, unsigned long flags, const char *file, int line, const char *fmt,
                        ...) {
    (void)flags;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    long tid = syscall(SYS_gettid);
    if (level == CCL_LOG_WARN) {
        printf("\n%s:%d:%ld [0] %s:%d NCCL WARN %s\n", hostname, getpid(), tid, file, line, msg);
    } else if (level == CCL_LOG_INFO || level == CCL_LOG_TRACE) {
        printf("%s:%d:%ld [0] NCCL INFO %s\n", hostname, getpid(), tid, msg);
    }
    fflush(stdout);
}

#define INFO(...) nccl_logger(CCL_LOG_INFO, CCL_SUBSYS_INIT, __FILE__, __LINE__, __VA_ARGS__)

static void check(int ok, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    printf("%s %s\n", ok ? "PASS" : "FAIL", msg);
    fflush(stdout);
    atomic_fetch_add(ok ? &passed : &failed, 1);
}

static ccl_result_t profiler(void **e, int type, void *p, int64_t id, void *ext) {
    (void)e, (void)type, (void)p, (void)id, (void)ext;
    return ccl_success;
}

/* ---- loading, as NCCL 2.30's plugin_open.cc and net.cc do ---- */

static void *plugin_lib;
static char plugin_name[256];

static void *try_dlopen(const char *name) {
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        INFO("ncclOsDlopen(%s) failed: %s", name, dlerror());
    }
    return h;
}

static int has_lib_prefix_and_so_suffix(const char *s) {
    size_t n = strlen(s);
    return strncmp(s, "lib", 3) == 0 && n > 3 && strcmp(s + n - 3, ".so") == 0;
}

/* Opens the first entry of NCCL_NET_PLUGIN that loads; returns 0 on success. */
static int open_plugin(const char *prefix) {
    const char *env = getenv("NCCL_NET_PLUGIN");
    char list[4096];
    if (env != NULL) {
        INFO("NCCL_NET_PLUGIN set by environment to %s", env);
        if (strcasecmp(env, "none") == 0) {
            return -1;
        }
        snprintf(list, sizeof list, "%s", env);
    } else {
        snprintf(list, sizeof list, "%s.so", prefix);
    }
    char *save = NULL;
    for (char *entry = strtok_r(list, ",", &save); entry != NULL; entry = strtok_r(NULL, ",", &save)) {
        plugin_lib = try_dlopen(entry);
        snprintf(plugin_name, sizeof plugin_name, "%s", entry);
        if (plugin_lib == NULL && strchr(entry, '/') == NULL && !has_lib_prefix_and_so_suffix(entry)) {
            snprintf(plugin_name, sizeof plugin_name, "%s-%s.so", prefix, entry);
            plugin_lib = try_dlopen(plugin_name);
        }
        if (plugin_lib != NULL) {
            return 0;
        }
    }
    INFO("NET/Plugin: Could not find: %s", env != NULL ? env : "libnccl-net.so");
    return -1;
}

/* The newest table the loader finds, v12 down to v6, logged as NCCL 2.30 logs it. */
static int find_newest(void) {
    static const int order[] = {12, 11, 10, 9, 8, 7, 6};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        char sym[32];
        snprintf(sym, sizeof sym, "ncclNetPlugin_v%d", order[i]);
        void *t = dlsym(plugin_lib, sym);
        if (t == NULL) {
            if (order[i] != 12) {
                INFO("ncclOsDlsym(%s) failed: %s", sym, dlerror());
            }
            continue;
        }
        INFO("NET/Plugin: Loaded net plugin %s (v%d)", *(const char **)t, order[i]);
        INFO("Successfully loaded external network plugin %s", plugin_name);
        return order[i];
    }
    INFO("External network plugin %s is unsupported", plugin_name);
    return -1;
}

/* ---- one version-neutral view of whichever table is under test ---- */

typedef struct {
    int version;
    void *table;
    void *ctx;
} plugin_t;

#define T(v) ((ccl_net_v##v##_t *)p->table)

typedef struct {
    const char *name;
    const char *pci_path;
    int ptr_support, speed, max_comms, max_recvs;
    float latency;
    int vdev_count, vdev0, dev_type;
    size_t max_p2p;
    int multi, rail, plane;
    int guard_ok;
} props_t;

static int h_init(plugin_t *p, uint64_t comm_id) {
    ccl_comm_config_t cfg = {.traffic_class = -1};
    switch (p->version) {
    case 6: return T(6)->init(nccl_logger);
    case 7: return T(7)->init(nccl_logger);
    case 8: return T(8)->init(nccl_logger);
    case 9: return T(9)->init(nccl_logger);
    case 10: return T(10)->init(nccl_logger, profiler);
    case 11: return T(11)->init(&p->ctx, comm_id, &cfg, nccl_logger, profiler);
    default: return T(12)->init(&p->ctx, comm_id, &cfg, nccl_logger, profiler);
    }
}

static int h_devices(plugin_t *p, int *n) {
    return ((ccl_net_v6_t *)p->table)->devices(n); /* slot 2 has one signature in every version */
}

#define GUARD 0xA5

static int h_props(plugin_t *p, int dev, props_t *o) {
    unsigned char buf[256];
    memset(buf, GUARD, sizeof buf);
    size_t size;
    int rc;
    memset(o, 0, sizeof *o);
    o->vdev_count = -1, o->multi = -1, o->rail = -2, o->plane = -2, o->dev_type = -1;
#define COMMON(x)                                                                                                \
    o->name = (x)->name, o->pci_path = (x)->pci_path, o->ptr_support = (x)->ptr_support, o->speed = (x)->speed, \
    o->latency = (x)->latency, o->max_comms = (x)->max_comms, o->max_recvs = (x)->max_recvs
    switch (p->version) {
    case 6: { ccl_props_v6_t *x = (void *)buf; size = sizeof *x; rc = T(6)->get_properties(dev, x); COMMON(x); break; }
    case 7: { ccl_props_v7_t *x = (void *)buf; size = sizeof *x; rc = T(7)->get_properties(dev, x); COMMON(x);
              o->dev_type = x->net_device_type; break; }
    case 8: { ccl_props_v8_t *x = (void *)buf; size = sizeof *x; rc = T(8)->get_properties(dev, x); COMMON(x);
              o->dev_type = x->net_device_type; break; }
    case 9:
    case 10: { ccl_props_v9_t *x = (void *)buf; size = sizeof *x;
               rc = p->version == 9 ? T(9)->get_properties(dev, x) : T(10)->get_properties(dev, x); COMMON(x);
               o->dev_type = x->net_device_type; o->vdev_count = x->vprops.ndevs; o->vdev0 = x->vprops.devs[0];
               o->max_p2p = x->max_p2p_bytes; break; }
    case 11: { ccl_props_v11_t *x = (void *)buf; size = sizeof *x; rc = T(11)->get_properties(dev, x); COMMON(x);
               o->dev_type = x->net_device_type; o->vdev_count = x->vprops.ndevs; o->vdev0 = x->vprops.devs[0];
               o->max_p2p = x->max_p2p_bytes; o->multi = x->max_multi_request_size; break; }
    default: { ccl_props_v12_t *x = (void *)buf; size = sizeof *x; rc = T(12)->get_properties(dev, x); COMMON(x);
               o->dev_type = x->net_device_type; o->vdev_count = x->vprops.ndevs; o->vdev0 = x->vprops.devs[0];
               o->max_p2p = x->max_p2p_bytes; o->multi = x->max_multi_request_size; o->rail = x->rail_id;
               o->plane = x->plane_id; break; }
    }
    o->guard_ok = 1;
    for (size_t i = size; i < sizeof buf; i++) {
        if (buf[i] != GUARD) {
            o->guard_ok = 0;
        }
    }
    return rc;
}

static int h_listen(plugin_t *p, int dev, void *handle, void **lc) {
    if (p->version >= 11) {
        return T(12)->listen(p->ctx, dev, handle, lc);
    }
    return T(6)->listen(dev, handle, lc);
}

/* RCCL may pass a {uint32_t chId} where the device handle goes; the plugin must never touch it. */
typedef struct {
    uint32_t ch_id;
} rccl_ctxt_t;

static int h_connect(plugin_t *p, int dev, void *handle, void **sc, rccl_ctxt_t *devcomm) {
    ccl_comm_config_t cfg = {.traffic_class = -1};
    ccl_net_device_handle_t **dc = (ccl_net_device_handle_t **)devcomm;
    switch (p->version) {
    case 6: return T(6)->connect(dev, handle, sc);
    case 7: return T(7)->connect(dev, handle, sc, dc);
    case 8: return T(8)->connect(dev, handle, sc, dc);
    case 9: return T(9)->connect(dev, handle, sc, dc);
    case 10: return T(10)->connect(dev, &cfg, handle, sc, dc);
    default: return T(12)->connect(p->ctx, dev, handle, sc, dc);
    }
}

static int h_accept(plugin_t *p, void *lc, void **rc, rccl_ctxt_t *devcomm) {
    if (p->version == 6) {
        return T(6)->accept(lc, rc);
    }
    return T(7)->accept(lc, rc, (ccl_net_device_handle_t **)devcomm);
}

static int h_reg(plugin_t *p, void *comm, void *data, size_t size, void **mh) {
    if (p->version <= 7) {
        return T(6)->reg_mr(comm, data, (int)size, CCL_PTR_HOST, mh);
    }
    return T(8)->reg_mr(comm, data, size, CCL_PTR_HOST, mh);
}

static int h_dereg(plugin_t *p, void *comm, void *mh) {
    return T(6)->dereg_mr(comm, mh);
}

static int h_isend(plugin_t *p, void *sc, void *data, size_t size, int tag, void *mh, void **req) {
    switch (p->version) {
    case 6:
    case 7:
    case 8: return T(6)->isend(sc, data, (int)size, tag, mh, req);
    case 9: return T(9)->isend(sc, data, size, tag, mh, req);
    default: return T(10)->isend(sc, data, size, tag, mh, NULL, req);
    }
}

static int h_irecv(plugin_t *p, void *rc, int n, void **data, size_t *sizes, int *tags, void **mhs, void **req) {
    int isizes[8];
    void *phandles[8] = {0};
    switch (p->version) {
    case 6:
    case 7:
    case 8:
        for (int i = 0; i < n; i++) {
            isizes[i] = (int)sizes[i];
        }
        /* NCCL's compat layers for v6..v8 reset the optional-completion marker before calling. */
        *req = NULL;
        return T(6)->irecv(rc, n, data, isizes, tags, mhs, req);
    case 9: return T(9)->irecv(rc, n, data, sizes, tags, mhs, req);
    default: return T(10)->irecv(rc, n, data, sizes, tags, mhs, phandles, req);
    }
}

static int h_iflush(plugin_t *p, void *rc, int n, void **data, int *sizes, void **mhs, void **req) {
    return T(6)->iflush(rc, n, data, sizes, mhs, req);
}

static int h_test(plugin_t *p, void *req, int *done, int *sizes) {
    return T(6)->test(req, done, sizes);
}

static int h_close_send(plugin_t *p, void *c) { return T(6)->close_send(c); }
static int h_close_recv(plugin_t *p, void *c) { return T(6)->close_recv(c); }
static int h_close_listen(plugin_t *p, void *c) { return T(6)->close_listen(c); }

static int h_finalize(plugin_t *p) {
    if (p->version >= 11) {
        return T(12)->finalize(p->ctx);
    }
    return ccl_success;
}

/* ---- the two ranks ---- */

typedef struct {
    plugin_t *p;
    int dev;
    int n;                          /* buffers per grouped receive */
    unsigned char handle[CCL_NET_HANDLE_MAXSIZE];
    atomic_int handle_ready;
    const char *handle_file;        /* two processes: the handle travels through this file */
    unsigned seed;
} pair_t;

static unsigned char pattern(unsigned seed, int req, int i, int k) {
    return (unsigned char)(seed * 31u + (unsigned)req * 131u + (unsigned)i * 17u + (unsigned)k * 7u + 1u);
}

static size_t send_size(int req, int i) {
    return (size_t)(BUF_BYTES - 13 * i - req); /* every receive larger than its send, all sizes distinct */
}

static int wait_test(plugin_t *p, void *req, int *sizes, const char *what) {
    int done = 0;
    long t = 0;
    for (double t0 = now_s(); !done && WITHIN(t0); t++) {
        int rc = h_test(p, req, &done, sizes);
        if (rc != ccl_success) {
            check(0, "v%d %s: test returned %d", p->version, what, rc);
            return -1;
        }
        if (!done) {
            sched_yield();
        }
    }
    if (!done) {
        check(0, "v%d %s: not done after %ld tests in %.0f s", p->version, what, t, wait_seconds);
        return -1;
    }
    return 0;
}

static void write_handle_file(const char *path, const unsigned char *h) {
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    for (int i = 0; f != NULL && i < CCL_NET_HANDLE_MAXSIZE; i++) {
        fprintf(f, "%02x", h[i]);
    }
    if (f != NULL) {
        fclose(f);
        rename(tmp, path);
    }
}

static int read_handle_file(const char *path, unsigned char *h) {
    for (double t0 = now_s(); WITHIN(t0);) {
        FILE *f = fopen(path, "r");
        if (f != NULL) {
            int ok = 1;
            for (int i = 0; i < CCL_NET_HANDLE_MAXSIZE && ok; i++) {
                unsigned v;
                ok = fscanf(f, "%2x", &v) == 1;
                h[i] = (unsigned char)v;
            }
            fclose(f);
            if (ok) {
                return 0;
            }
        }
        usleep(100000);
    }
    return -1;
}

static void *receiver(void *arg) {
    pair_t *pr = arg;
    plugin_t *p = pr->p;
    void *lc = NULL, *rc = NULL;
    int v = p->version;
    check(h_listen(p, pr->dev, pr->handle, &lc) == ccl_success && lc != NULL, "v%d listen gives a listen comm", v);
    if (lc == NULL) {
        atomic_store(&pr->handle_ready, -1);
        return NULL;
    }
    if (pr->handle_file != NULL) {
        write_handle_file(pr->handle_file, pr->handle);
    }
    atomic_store(&pr->handle_ready, 1);
    rccl_ctxt_t poison = {.ch_id = 0xC0DEC0DE};
    long tries = 0;
    for (double t0 = now_s(); rc == NULL && WITHIN(t0); tries++) {
        if (h_accept(p, lc, &rc, &poison) != ccl_success) {
            break;
        }
        if (rc == NULL) {
            sched_yield();
        }
    }
    check(rc != NULL, "v%d accept gives a receive comm after %ld calls", v, tries);
    check(poison.ch_id == 0xC0DEC0DE, "v%d accept leaves recvDevComm untouched", v);
    if (rc == NULL) {
        h_close_listen(p, lc);
        return NULL;
    }
    int n = pr->n;
    size_t total = (size_t)RANKS_REQUESTS * (size_t)n * BUF_BYTES;
    unsigned char *buf = calloc(1, total);
    void *mh = NULL;
    check(h_reg(p, rc, buf, total, &mh) == ccl_success && mh != NULL, "v%d regMr on the receive comm", v);
    {
        /* A buffer the host left NULL is refused with an error, never touched, and advertised to nobody: the
         * sender's messages below still land in the receives that follow. */
        void *data[1] = {NULL}, *mhs[1] = {mh}, *req = (void *)0x1;
        size_t sizes[1] = {BUF_BYTES};
        int tags[1] = {100};
        int st = h_irecv(p, rc, 1, data, sizes, tags, mhs, &req);
        check(st != ccl_success && req == NULL, "v%d irecv of a NULL buffer of %d bytes is refused (rc %d)", v,
              (int)BUF_BYTES, st);
    }
    void *reqs[RANKS_REQUESTS];
    for (int r = 0; r < RANKS_REQUESTS; r++) {
        void *data[8], *mhs[8];
        size_t sizes[8];
        int tags[8];
        for (int i = 0; i < n; i++) {
            data[i] = buf + ((size_t)r * n + i) * BUF_BYTES;
            sizes[i] = BUF_BYTES;
            tags[i] = 100 + i;
            mhs[i] = mh;
        }
        reqs[r] = (void *)0x1; /* NCCL_NET_OPTIONAL_RECV_COMPLETION may be left here */
        double t0 = now_s();
        int st;
        do {
            st = h_irecv(p, rc, n, data, sizes, tags, mhs, &reqs[r]);
        } while (st == ccl_success && reqs[r] == NULL && WITHIN(t0));
        if (st != ccl_success || reqs[r] == NULL || reqs[r] == (void *)0x1) {
            check(0, "v%d irecv %d of %d posts (rc %d, request %p)", v, r, RANKS_REQUESTS, st, reqs[r]);
            reqs[r] = NULL;
        }
    }
    check(1, "v%d %d grouped receives of %d buffers in flight", v, RANKS_REQUESTS, n);
    int bad = 0;
    for (int r = 0; r < RANKS_REQUESTS; r++) {
        if (reqs[r] == NULL) {
            bad++;
            continue;
        }
        int sizes[8];
        int *sp = (r % 2 == 0) ? NULL : sizes; /* NCCL tests flushes and some receives with NULL sizes */
        if (wait_test(p, reqs[r], sp, "receive") != 0) {
            bad++;
            continue;
        }
        for (int i = 0; i < n; i++) {
            size_t want = send_size(r, i);
            if (sp != NULL && sizes[i] != (int)want) {
                bad++;
            }
            unsigned char *b = buf + ((size_t)r * n + i) * BUF_BYTES;
            for (size_t k = 0; k < want; k++) {
                if (b[k] != pattern(pr->seed, r, i, (int)k)) {
                    bad++;
                    break;
                }
            }
        }
    }
    check(bad == 0, "v%d every receive done with the sender's bytes and sizes (%d bad)", v, bad);
    void *data0[1] = {buf};
    int size0[1] = {(int)send_size(0, 0)};
    void *mh0[1] = {mh};
    void *freq = (void *)0x1;
    int st = h_iflush(p, rc, 1, data0, size0, mh0, &freq);
    if (st == ccl_success && freq != NULL) {
        st = wait_test(p, freq, NULL, "flush");
    }
    check(st == ccl_success && freq != (void *)0x1, "v%d iflush of host memory completes", v);
    check(h_dereg(p, rc, mh) == ccl_success, "v%d deregMr", v);
    check(h_close_recv(p, rc) == ccl_success, "v%d closeRecv", v);
    check(h_close_listen(p, lc) == ccl_success, "v%d closeListen", v);
    free(buf);
    return NULL;
}

static void *sender(void *arg) {
    pair_t *pr = arg;
    plugin_t *p = pr->p;
    int v = p->version;
    if (pr->handle_file != NULL) {
        if (read_handle_file(pr->handle_file, pr->handle) != 0) {
            check(0, "v%d the listener's handle arrived in %s", v, pr->handle_file);
            return NULL;
        }
    } else {
        while (atomic_load(&pr->handle_ready) == 0) {
            sched_yield();
        }
        if (atomic_load(&pr->handle_ready) < 0) {
            return NULL;
        }
    }
    void *sc = NULL;
    rccl_ctxt_t poison = {.ch_id = 0xC0DEC0DE};
    long tries = 0;
    int st = ccl_success;
    for (double t0 = now_s(); sc == NULL && WITHIN(t0); tries++) {
        st = h_connect(p, pr->dev, pr->handle, &sc, &poison);
        if (st != ccl_success) {
            break;
        }
        if (sc == NULL) {
            sched_yield();
        }
    }
    check(sc != NULL, "v%d connect gives a send comm after %ld calls (rc %d)", v, tries, st);
    check(poison.ch_id == 0xC0DEC0DE, "v%d connect leaves sendDevComm untouched", v);
    if (sc == NULL) {
        return NULL;
    }
    int n = pr->n;
    size_t total = (size_t)RANKS_REQUESTS * (size_t)n * BUF_BYTES;
    unsigned char *buf = malloc(total);
    for (int r = 0; r < RANKS_REQUESTS; r++) {
        for (int i = 0; i < n; i++) {
            unsigned char *b = buf + ((size_t)r * n + i) * BUF_BYTES;
            for (int k = 0; k < BUF_BYTES; k++) {
                b[k] = pattern(pr->seed, r, i, k);
            }
        }
    }
    void *mh = NULL;
    check(h_reg(p, sc, buf, total, &mh) == ccl_success && mh != NULL, "v%d regMr on the send comm", v);
    int count = RANKS_REQUESTS * n;
    void **reqs = calloc((size_t)count, sizeof(void *));
    int bad = 0;
    for (int r = 0; r < RANKS_REQUESTS; r++) {
        /* Tags in reverse: a send must land in the buffer its tag names, not in the next one. */
        for (int i = n - 1; i >= 0; i--) {
            void **req = &reqs[r * n + i];
            double t0 = now_s();
            do {
                st = h_isend(p, sc, buf + ((size_t)r * n + i) * BUF_BYTES, send_size(r, i), 100 + i, mh, req);
                if (*req == NULL) {
                    sched_yield();
                }
            } while (st == ccl_success && *req == NULL && WITHIN(t0));
            if (st != ccl_success || *req == NULL) {
                bad++;
            }
        }
    }
    check(bad == 0, "v%d %d sends in flight with tags, retried while the receiver had not posted", v, count);
    for (int k = 0; k < count; k++) {
        int size = -1;
        if (reqs[k] == NULL || wait_test(p, reqs[k], &size, "send") != 0 ||
            size != (int)send_size(k / n, k % n)) {
            bad++;
        }
    }
    check(bad == 0, "v%d every send done with its size", v);
    check(h_dereg(p, sc, mh) == ccl_success, "v%d deregMr on the send comm", v);
    check(h_close_send(p, sc) == ccl_success, "v%d closeSend", v);
    free(reqs);
    free(buf);
    return NULL;
}

/* ---- one version, start to end ---- */

static int check_properties(plugin_t *p, int expect_speed, int expect_loopback) {
    int v = p->version;
    props_t pr;
    int rc = h_props(p, 0, &pr);
    check(rc == ccl_success, "v%d getProperties(0)", v);
    check(pr.name != NULL && strncmp(pr.name, "xdlink", 6) == 0, "v%d name %s", v, pr.name ? pr.name : "(null)");
    check(pr.speed == expect_speed, "v%d speed %d Mbps is the link's negotiated %d", v, pr.speed, expect_speed);
    check(pr.ptr_support == CCL_PTR_HOST, "v%d ptrSupport HOST", v);
    check(expect_loopback ? pr.pci_path == NULL : pr.pci_path != NULL, "v%d pciPath %s", v,
          pr.pci_path ? pr.pci_path : "NULL");
    check(pr.latency > 0.0f, "v%d latency %.3f us", v, pr.latency);
    check(pr.max_recvs >= 1 && pr.max_recvs <= 8 && pr.max_comms >= 1, "v%d maxRecvs %d maxComms %d", v,
          pr.max_recvs, pr.max_comms);
    check(pr.guard_ok, "v%d nothing written past ncclNetProperties_v%d", v, v);
    if (v >= 7) {
        check(pr.dev_type == 0, "v%d netDeviceType HOST", v);
    }
    if (v >= 9) {
        check(pr.vdev_count == 1 && pr.vdev0 == 0, "v%d vProps {1,{0}}", v);
        check(pr.max_p2p > 0 && pr.max_p2p <= (1ULL << 40), "v%d maxP2pBytes %zu", v, pr.max_p2p);
    }
    if (v >= 11) {
        check(pr.multi == 1, "v%d maxMultiRequestSize 1", v);
    }
    if (v >= 12) {
        check(pr.rail == -1 && pr.plane == -1, "v%d railId and planeId -1", v);
    }
    return pr.max_recvs;
}

static void run_version(int v, const char *mode, int expect_speed, int expect_loopback, const char *handle_file) {
    char sym[32];
    snprintf(sym, sizeof sym, "ncclNetPlugin_v%d", v);
    plugin_t p = {.version = v, .table = dlsym(plugin_lib, sym), .ctx = NULL};
    check(p.table != NULL, "v%d table %s exported", v, sym);
    if (p.table == NULL) {
        return;
    }
    check(strcmp(*(const char **)p.table, "xdlink") == 0, "v%d name is xdlink", v);
    int rc = h_init(&p, 0x5EED0000ULL + (uint64_t)v);
    check(rc == ccl_success, "v%d init", v);
    if (rc != ccl_success) {
        return;
    }
    if (v >= 11) {
        check(p.ctx != NULL, "v%d init gives a per-communicator context", v);
    }
    int ndev = 0;
    check(h_devices(&p, &ndev) == ccl_success && ndev >= 1, "v%d devices: %d", v, ndev);
    if (ndev < 1) {
        return;
    }
    int max_recvs = check_properties(&p, expect_speed, expect_loopback);
    int n = max_recvs < 4 ? max_recvs : 4;
    char file[512];
    if (handle_file != NULL) {
        snprintf(file, sizeof file, "%s.v%d", handle_file, v); /* one handle per version's connection */
    }
    pair_t pr = {.p = &p, .dev = 0, .n = n, .handle_ready = 0, .handle_file = handle_file ? file : NULL,
                 .seed = (unsigned)v};
    if (strcmp(mode, "threads") == 0) {
        pthread_t a, b;
        pthread_create(&a, NULL, receiver, &pr);
        pthread_create(&b, NULL, sender, &pr);
        pthread_join(a, NULL);
        pthread_join(b, NULL);
    } else if (strcmp(mode, "listen") == 0) {
        receiver(&pr);
    } else {
        sender(&pr);
    }
    check(h_finalize(&p) == ccl_success, "v%d finalize", v);
}

/* ---- ping-pong latency through the native tables ---- */

typedef struct {
    plugin_t *p;
    void *sc, *rc, *smh, *rmh;
    unsigned char *sbuf, *rbuf;
    long iterations;
    int first;
    double seconds;
} pinger_t;

static void post_wait_recv(plugin_t *p, void *rc, void *buf, void *mh) {
    void *data[1] = {buf}, *mhs[1] = {mh}, *req = NULL;
    size_t sizes[1] = {8};
    int tags[1] = {0};
    while (req == NULL) {
        h_irecv(p, rc, 1, data, sizes, tags, mhs, &req);
    }
    int done = 0;
    while (!done) {
        h_test(p, req, &done, NULL);
        if (!done) {
            sched_yield(); /* the progress engines share the cores with both ranks */
        }
    }
}

static void send_wait(plugin_t *p, void *sc, void *buf, void *mh) {
    void *req = NULL;
    while (req == NULL) {
        h_isend(p, sc, buf, 8, 0, mh, &req);
        if (req == NULL) {
            sched_yield();
        }
    }
    int done = 0;
    while (!done) {
        h_test(p, req, &done, NULL);
        if (!done) {
            sched_yield();
        }
    }
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *pinger(void *arg) {
    pinger_t *g = arg;
    double t0 = 0;
    for (long i = -1000; i < g->iterations; i++) {
        if (i == 0) {
            t0 = now();
        }
        if (g->first) {
            send_wait(g->p, g->sc, g->sbuf, g->smh);
            post_wait_recv(g->p, g->rc, g->rbuf, g->rmh);
        } else {
            post_wait_recv(g->p, g->rc, g->rbuf, g->rmh);
            send_wait(g->p, g->sc, g->sbuf, g->smh);
        }
    }
    g->seconds = now() - t0;
    return NULL;
}

static int connect_pair(plugin_t *p, void **sc, void **rc) {
    unsigned char handle[CCL_NET_HANDLE_MAXSIZE];
    void *lc = NULL;
    if (h_listen(p, 0, handle, &lc) != ccl_success || lc == NULL) {
        return -1;
    }
    *sc = NULL, *rc = NULL;
    for (double t0 = now_s(); (*sc == NULL || *rc == NULL) && WITHIN(t0);) {
        if (*sc == NULL && h_connect(p, 0, handle, sc, NULL) != ccl_success) {
            return -1;
        }
        if (*rc == NULL && h_accept(p, lc, rc, NULL) != ccl_success) {
            return -1;
        }
        sched_yield();
    }
    h_close_listen(p, lc);
    return (*sc != NULL && *rc != NULL) ? 0 : -1;
}

static void run_pingpong(long iterations) {
    plugin_t p = {.version = 12, .table = dlsym(plugin_lib, "ncclNetPlugin_v12")};
    if (p.table == NULL || h_init(&p, 1) != ccl_success) {
        check(0, "pingpong: init");
        return;
    }
    int ndev = 0;
    h_devices(&p, &ndev);
    void *sc[2], *rc[2];
    if (ndev < 1 || connect_pair(&p, &sc[0], &rc[1]) != 0 || connect_pair(&p, &sc[1], &rc[0]) != 0) {
        check(0, "pingpong: connect two comm pairs");
        return;
    }
    /* The cost of one call through the table: test() of a receive nothing will complete, on a third pair. */
    void *sc3 = NULL, *rc3 = NULL;
    if (connect_pair(&p, &sc3, &rc3) == 0) {
        unsigned char *idle = calloc(1, 64);
        void *imh = NULL, *ireq = NULL, *data[1] = {idle};
        size_t isz[1] = {8};
        int itag[1] = {99};
        h_reg(&p, rc3, idle, 64, &imh);
        void *mhs[1] = {imh};
        while (ireq == NULL) {
            h_irecv(&p, rc3, 1, data, isz, itag, mhs, &ireq);
        }
        long calls = iterations * 20;
        int done = 0;
        double t0 = now();
        for (long i = 0; i < calls; i++) {
            h_test(&p, ireq, &done, NULL);
        }
        double per_call_ns = (now() - t0) / (double)calls * 1e9;
        printf("pingpong: one test() call through ncclNetPlugin_v12: %.1f ns over %ld calls\n", per_call_ns, calls);
        check(done == 0, "pingpong: the idle receive stays pending");
        h_close_recv(&p, rc3);
        h_close_send(&p, sc3);
    }
    pinger_t g[2];
    for (int i = 0; i < 2; i++) {
        g[i] = (pinger_t){.p = &p, .sc = sc[i], .rc = rc[i], .iterations = iterations, .first = i == 0};
        g[i].sbuf = calloc(1, 64);
        g[i].rbuf = calloc(1, 64);
        h_reg(&p, sc[i], g[i].sbuf, 64, &g[i].smh);
        h_reg(&p, rc[i], g[i].rbuf, 64, &g[i].rmh);
    }
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
        pthread_create(&t[i], NULL, pinger, &g[i]);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
    }
    double half_rtt_us = g[0].seconds / (double)iterations / 2.0 * 1e6;
    printf("pingpong: 8-byte half round trip through ncclNetPlugin_v12: %.3f us over %ld iterations\n",
           half_rtt_us, iterations);
    check(half_rtt_us > 0, "pingpong measured");
    for (int i = 0; i < 2; i++) {
        h_dereg(&p, sc[i], g[i].smh);
        h_dereg(&p, rc[i], g[i].rmh);
        h_close_send(&p, sc[i]);
        h_close_recv(&p, rc[i]);
    }
    h_finalize(&p);
}

/* ---- netbench: the plugin between two processes beside a plain socket between the same two ---- */

/*
 * Two processes (ranks 0 and 1), each loading the plugin as NCCL does, drive ncclNetPlugin_v12 the way NCCL's
 * proxy drives a network: up to NB_INFLIGHT requests in flight, test() polling the oldest, one isend per message,
 * and a sched_yield() after a pass that moved nothing. In turns with it, the same two processes move the same
 * bytes over one plain TCP socket (TCP_NODELAY, blocking calls) that also carries the barriers between phases.
 * Rank 1 sends, rank 0 receives, times from its barrier to the last byte and prints the table.
 */
#define NB_INFLIGHT 8
/* Blocks taken in turns by the plugin and the plain socket, in the streams and in the round trips. */
#define NB_BLOCKS 8
#define NB_MAX_SIZES 8

#include <netinet/in.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <sys/socket.h>

typedef struct {
    plugin_t *p;
    int rank;
    int sock;
    void *sc, *rc;
    long isend_null; /* isend calls answered "not yet" (NULL request) */
    int plugin_only; /* --plugin-only: no plain socket blocks, only the plugin's */
    char name[33];   /* the plugin's own name, from its table: what the figures are labelled with */
} nb_t;

/* name made printable: at most cap - 1 bytes of it, each byte outside printable ASCII as '_'; "" for NULL. */
static void nb_printable(const char *name, char *out, size_t cap) {
    size_t n = 0;
    for (; name != NULL && name[n] != '\0' && n + 1 < cap; n++) {
        out[n] = name[n] > ' ' && name[n] < 127 ? name[n] : '_';
    }
    out[n] = '\0';
}

/* The label netbench gives a plugin's figures, from the printable name its table gives (its first field in every
 * version): that name, or "plugin" when it gives none. NCCL's own socket transport calls itself "Socket", which would
 * read as the plain socket beside it: it is labelled as NCCL's logs name it, NET/Socket. */
static void nb_label(const char *given, char *label, size_t cap) {
    snprintf(label, cap, "%s", given[0] == '\0' ? "plugin" : strcasecmp(given, "socket") == 0 ? "NET/Socket" : given);
}

static int nb_write_all(int fd, const void *b, size_t n) {
    const char *c = b;
    while (n > 0) {
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w <= 0) {
            if (w < 0 && errno == EINTR) {
                continue;
            }
            return -1;
        }
        c += w, n -= (size_t)w;
    }
    return 0;
}

/* How nb_read_all waits: in a blocking call, by polling (MSG_DONTWAIT) in a spin, or polling with a sched_yield()
 * after each look that found nothing, as a proxy's loop runs a socket transport's test(). */
enum { NB_BLOCK = 0, NB_SPIN = 1, NB_YIELD = 2 };

static int nb_read_all(int fd, void *b, size_t n, int wait) {
    char *c = b;
    while (n > 0) {
        ssize_t r = recv(fd, c, n, wait != NB_BLOCK ? MSG_DONTWAIT : MSG_WAITALL);
        if (r < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (wait == NB_YIELD) {
                sched_yield();
            }
            continue;
        }
        if (r <= 0) {
            return -1;
        }
        c += r, n -= (size_t)r;
    }
    return 0;
}

static int nb_barrier(nb_t *b) {
    char x = 'b';
    return nb_write_all(b->sock, &x, 1) == 0 && nb_read_all(b->sock, &x, 1, NB_BLOCK) == 0 ? 0 : -1;
}

/* Sends mine to the other rank and returns its value through theirs, over the plain socket: 0, or -1 on failure. */
static int nb_swap(nb_t *b, int mine, int *theirs) {
    unsigned char out[4] = {(unsigned char)(mine >> 24), (unsigned char)(mine >> 16), (unsigned char)(mine >> 8),
                            (unsigned char)mine}, in[4];
    if (nb_write_all(b->sock, out, 4) != 0 || nb_read_all(b->sock, in, 4, NB_BLOCK) != 0) {
        return -1;
    }
    *theirs = (int)((unsigned)in[0] << 24 | (unsigned)in[1] << 16 | (unsigned)in[2] << 8 | in[3]);
    return 0;
}

static void nb_write_text(const char *path, const char *text) {
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
        rename(tmp, path);
    }
}

/* --socket-cc: the plain socket's congestion control, "" for the host's default. */
static const char *nb_socket_cc = "cubic";

/*
 * Gives socket s nb_socket_cc before its connection begins, as xdlink's rails take theirs: a socket that began with a
 * pacing algorithm keeps pacing after a switch. A name the kernel refuses leaves the host's default, which the
 * table's header shows.
 */
static void nb_congestion(int s) {
    if (nb_socket_cc[0] != '\0') {
        (void)setsockopt(s, IPPROTO_TCP, TCP_CONGESTION, nb_socket_cc, (socklen_t)strlen(nb_socket_cc));
    }
}

/* Rank 0 listens on an ephemeral port it writes to FILE.port; rank 1 reads it and connects to peer_ip. */
static int nb_socket(int rank, const char *file, const char *peer_ip) {
    char path[512];
    snprintf(path, sizeof path, "%s.port", file);
    int one = 1;
    if (rank == 0) {
        /* Dual stack: the lab's hosts may be numbered over IPv4 or over IPv6 link-local addresses only. */
        int l = socket(AF_INET6, SOCK_STREAM, 0), zero = 0;
        struct sockaddr_in6 a = {.sin6_family = AF_INET6, .sin6_addr = in6addr_any, .sin6_port = 0};
        socklen_t len = sizeof a;
        /* The congestion control on the listener, which the accepted socket takes from its first segment. */
        if (l >= 0) {
            nb_congestion(l);
        }
        if (l < 0 || setsockopt(l, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero) != 0
            || bind(l, (struct sockaddr *)&a, sizeof a) != 0 || listen(l, 1) != 0
            || getsockname(l, (struct sockaddr *)&a, &len) != 0) {
            return -1;
        }
        char port[16];
        snprintf(port, sizeof port, "%d\n", ntohs(a.sin6_port));
        nb_write_text(path, port);
        int s = accept(l, NULL, NULL);
        close(l);
        if (s >= 0) {
            setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        }
        return s;
    }
    int port = 0;
    for (int tries = 0; tries < 600 && port == 0; tries++) {
        FILE *f = fopen(path, "r");
        if (f != NULL) {
            if (fscanf(f, "%d", &port) != 1) {
                port = 0;
            }
            fclose(f);
        }
        if (port == 0) {
            usleep(100000);
        }
    }
    /* A numeric address of either family; an IPv6 link-local one names its interface (fe80::1%thunderbolt0). */
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICHOST}, *ai = NULL;
    if (port == 0 || getaddrinfo(peer_ip, service, &hints, &ai) != 0) {
        return -1;
    }
    /* Tried for up to 10 s: a lab just made may still be checking its IPv6 addresses for duplicates, and until it
     * has, a link-local address cannot be used. */
    int s = -1;
    for (int tries = 0; tries < 100 && s < 0; tries++) {
        s = socket(ai->ai_family, SOCK_STREAM, 0);
        if (s >= 0) {
            nb_congestion(s);
        }
        if (s >= 0 && connect(s, ai->ai_addr, ai->ai_addrlen) != 0) {
            close(s);
            s = -1;
            usleep(100000);
        }
    }
    freeaddrinfo(ai);
    if (s < 0) {
        return -1;
    }
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return s;
}

/* Each rank listens, hands its handle over through FILE.r<rank>, then connects to the other while accepting. */
static int nb_connect(nb_t *b, const char *file) {
    plugin_t *p = b->p;
    unsigned char mine[CCL_NET_HANDLE_MAXSIZE], theirs[CCL_NET_HANDLE_MAXSIZE];
    char path[512];
    void *lc = NULL;
    if (h_listen(p, 0, mine, &lc) != ccl_success || lc == NULL) {
        return -1;
    }
    snprintf(path, sizeof path, "%s.r%d", file, b->rank);
    write_handle_file(path, mine);
    snprintf(path, sizeof path, "%s.r%d", file, 1 - b->rank);
    if (read_handle_file(path, theirs) != 0) {
        return -1;
    }
    b->sc = NULL, b->rc = NULL;
    for (double t0 = now_s(); (b->sc == NULL || b->rc == NULL) && WITHIN(t0);) {
        if (b->sc == NULL && h_connect(p, 0, theirs, &b->sc, NULL) != ccl_success) {
            return -1;
        }
        if (b->rc == NULL && h_accept(p, lc, &b->rc, NULL) != ccl_success) {
            return -1;
        }
        if (b->sc == NULL || b->rc == NULL) {
            sched_yield();
        }
    }
    h_close_listen(p, lc);
    return b->sc != NULL && b->rc != NULL ? 0 : -1;
}

/* Posts one isend or irecv of size bytes once; *req stays NULL when the plugin says "not yet". */
static int nb_try_post(nb_t *b, int send, void *buf, size_t size, void *mh, void **req) {
    if (send) {
        int st = h_isend(b->p, b->sc, buf, size, 0, mh, req);
        if (*req == NULL) {
            b->isend_null++;
        }
        return st;
    }
    void *data[1] = {buf}, *mhs[1] = {mh};
    size_t sizes[1] = {size};
    int tags[1] = {0};
    return h_irecv(b->p, b->rc, 1, data, sizes, tags, mhs, req);
}

/* One message through the plugin: post (retrying "not yet") and return the request, or NULL on an error. */
static void *nb_post(nb_t *b, int send, void *buf, size_t size, void *mh) {
    void *req = NULL;
    while (req == NULL) {
        if (nb_try_post(b, send, buf, size, mh, &req) != ccl_success) {
            return NULL;
        }
        if (req == NULL) {
            sched_yield();
        }
    }
    return req;
}

/*
 * The gaps between a stream's completed messages, from its block's start: the longest, and the time in gaps longer
 * than NB_STALL_SECONDS with their count. A stall that long is no message's own time at any size measured (8 MiB takes
 * 1-3 ms on the lab's cable), so it shows something else holding the stream: a collection, a compilation, a window
 * that stayed shut. The ratio of a round alone cannot tell such a stall from a stream that is slow throughout.
 */
#define NB_STALL_SECONDS 0.010

typedef struct {
    double longest, stalled;
    long stalls;
} nb_gaps_t;

/* Counts the gap from *last to t into g and moves *last to t. */
static void nb_gap(nb_gaps_t *g, double *last, double t) {
    double gap = t - *last;
    *last = t;
    if (gap > g->longest) {
        g->longest = gap;
    }
    if (gap > NB_STALL_SECONDS) {
        g->stalled += gap;
        g->stalls++;
    }
}

/* Prints one way's gaps: "LABEL longest X ms, Y ms in N over 10 ms". */
static void nb_print_gaps(const char *label, const nb_gaps_t *g) {
    printf("%s longest %.1f ms, %.1f ms in %ld over %.0f ms", label, g->longest * 1e3, g->stalled * 1e3, g->stalls,
           NB_STALL_SECONDS * 1e3);
}

/*
 * Streams count messages of size bytes with up to NB_INFLIGHT in flight, as a proxy does, counting the gaps between
 * completions into gaps; 0 when all are done.
 */
static int nb_stream(nb_t *b, int send, unsigned char *ring, size_t size, void *mh, long count, nb_gaps_t *gaps) {
    void *reqs[NB_INFLIGHT];
    long posted = 0, done = 0;
    double last = now();
    while (done < count) {
        int moved = 0;
        if (posted < count && posted - done < NB_INFLIGHT) {
            void *req = NULL;
            unsigned char *buf = ring + (size_t)(posted % NB_INFLIGHT) * size;
            if (nb_try_post(b, send, buf, size, mh, &req) != ccl_success) {
                return -1;
            }
            if (req != NULL) {
                reqs[posted++ % NB_INFLIGHT] = req;
                moved = 1;
            }
        }
        if (done < posted) {
            int d = 0;
            if (h_test(b->p, reqs[done % NB_INFLIGHT], &d, NULL) != ccl_success) {
                return -1;
            }
            if (d) {
                done++;
                moved = 1;
                nb_gap(gaps, &last, now());
            }
        }
        if (!moved) {
            sched_yield();
        }
    }
    return 0;
}

/* How many blocks total items (messages, round trips) run in: NB_BLOCKS, or one per item when there are fewer. */
static int nb_blocks(long total) {
    return total < NB_BLOCKS ? (int)total : NB_BLOCKS;
}

/* Items in block k of blocks: an equal share, the last block taking what the division leaves. */
static long nb_block_len(long total, int blocks, int k) {
    long per = total / blocks;
    return k + 1 < blocks ? per : total - per * (blocks - 1);
}

static int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, c = *(const double *)y;
    return a < c ? -1 : a > c;
}

/* The range and the median of n block ratios, which it sorts in place. */
typedef struct {
    double lo, hi, median;
} nb_spread_t;

static nb_spread_t nb_spread(double *ratio, int n) {
    qsort(ratio, (size_t)n, sizeof *ratio, cmp_double);
    nb_spread_t q = {ratio[0], ratio[n - 1], (ratio[(n - 1) / 2] + ratio[n / 2]) / 2};
    return q;
}

/* Gb/s of count messages of size bytes moved in seconds. */
static double nb_gbps(long count, size_t size, double seconds) {
    return (double)count * (double)size * 8.0 / (seconds * 1e9);
}

/*
 * count messages of size bytes, through the plugin and through the plain socket, in blocks taken in turns
 * (NB_BLOCKS, or one per message when there are fewer), so that a spell of noise from the machine's neighbours
 * falls on both alike: in one run the socket's own 8 MiB stream moved 17.5 Gb/s in one round and 10.9 in the next.
 * seconds gets each way's total time, ratio each block's bandwidth ratio (the first block is the coldest), or with
 * --plugin-only the plugin's Gb/s in the block, isend_null the plugin's isends answered "not yet" (rank 1 sends).
 * Returns the number of blocks, -1 on failure.
 */
static int nb_bandwidths(nb_t *b, unsigned char *ring, size_t size, void *ring_mh, long count, double *seconds,
                         double *ratio, long *isend_null, nb_gaps_t *gaps) {
    /* Each block at least two windows of requests in flight, so that every block, the warm-up's too, runs the
     * stream's full depth: the warm-up's 8 MiB stream, 16 messages in blocks of two, never had more than two in
     * flight, and the first block of round 1 then met send and receive paths compiled without the branches a deeper
     * stream takes (uncommon traps on both ends, messages 3 to 8 at 14-18 ms each against 3.5 ms later). */
    int blocks = nb_blocks(count / (2 * NB_INFLIGHT) > 0 ? count / (2 * NB_INFLIGHT) : 1);
    for (int k = 0; k < blocks; k++) {
        long n = nb_block_len(count, blocks, k);
        double took[2];
        for (int way = 0; way < (b->plugin_only ? 1 : 2); way++) { /* 0: the plugin, 1: the plain socket */
            if (nb_barrier(b) != 0) {
                return -1;
            }
            b->isend_null = 0;
            double t0 = now();
            int ok = 1;
            if (way == 0) {
                ok = nb_stream(b, b->rank == 1, ring, size, ring_mh, n, &gaps[0]) == 0;
                *isend_null += b->isend_null;
            } else {
                double last = t0;
                for (long m = 0; ok && m < n; m++) {
                    unsigned char *buf = ring + (size_t)(m % NB_INFLIGHT) * size;
                    ok = (b->rank == 1 ? nb_write_all(b->sock, buf, size)
                                       : nb_read_all(b->sock, buf, size, NB_BLOCK)) == 0;
                    nb_gap(&gaps[1], &last, now());
                }
            }
            if (!ok) {
                return -1;
            }
            took[way] = now() - t0;
            seconds[way] += took[way];
        }
        ratio[k] = b->plugin_only ? nb_gbps(n, size, took[0]) : took[1] / took[0];
    }
    return blocks;
}

static int nb_wait(nb_t *b, void *req) {
    int d = 0;
    while (!d) {
        if (req == NULL || h_test(b->p, req, &d, NULL) != ccl_success) {
            return -1;
        }
        if (!d) {
            sched_yield();
        }
    }
    return 0;
}

typedef struct {
    double median, p99;
} nb_lat_t;

static nb_lat_t nb_quantiles(double *rtt, long n) {
    qsort(rtt, (size_t)n, sizeof *rtt, cmp_double);
    nb_lat_t q = {rtt[n / 2], rtt[(long)((double)(n - 1) * 0.99)]};
    return q;
}

/*
 * The warm-up: passes of the round's phases at an eighth of the bytes, unprinted but for the first (round 0, the
 * cold one), until both processes' JIT compilers were busy for under a twentieth of a pass, or NB_WARMUP_SECONDS
 * have passed, or --warmup-passes passes have run. A single pass left the compilers of both ends at work in the first
 * measured round: with a 64 KiB stream, their C2 threads took 260 ms of the two processors' 690 in its first block
 * (a /proc sampler), while the later rounds ran at 1.03-1.10 of the socket. After a last pass with the compilers
 * at 6.7% a 64 KiB round still began at 0.66 of the socket; under 5%, at 0.81-1.03.
 */
#define NB_WARMUP_SECONDS 60.0
#define NB_QUIET_PERMILLE 50
#define NB_MAX_COMPILERS 64

/* Processor time of this process's JIT compiler threads, per thread, in clock ticks (from /proc/self/task). */
typedef struct {
    long tid[NB_MAX_COMPILERS], ticks[NB_MAX_COMPILERS];
    int n;
} nb_compilers_t;

/*
 * The next field of a /proc stat line after p, which must be a single space and then the field: its first character,
 * with *end set past it; NULL when the line ends or the separator is not one space.
 */
static const char *nb_stat_field(const char *p, const char *limit, const char **end) {
    if (p >= limit || *p != ' ' || p + 1 >= limit || p[1] == ' ' || p[1] == '\n' || p[1] == '\0') {
        return NULL;
    }
    const char *q = ++p;
    while (q < limit && *q != ' ' && *q != '\n' && *q != '\0') {
        q++;
    }
    *end = q;
    return p;
}

/*
 * The decimal digits from p to end, and nothing else, as a number from lo to hi, into *out; -1 for anything else
 * (none, a sign, another byte, beyond hi or a long long). The one reading of a count in this harness: /proc fields and
 * options alike.
 */
static int parse_digits(const char *p, const char *end, long long lo, long long hi, long long *out) {
    long long v = 0;
    if (p == NULL || p >= end) {
        return -1;
    }
    for (; p < end; p++) {
        if (*p < '0' || *p > '9' || v > (LLONG_MAX - (*p - '0')) / 10) {
            return -1;
        }
        v = v * 10 + (*p - '0');
    }
    if (v < lo || v > hi) {
        return -1;
    }
    *out = v;
    return 0;
}

/*
 * The processor time (utime + stime, in clock ticks) that a thread's /proc/PID/task/TID/stat text of len bytes
 * gives, when it is a JIT compiler thread's; -1 for any other thread and for text that is not such a line (cut
 * short, a field missing or not a count, a sum beyond a long). The line is "tid (comm) state ppid pgrp session
 * tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime ...", the comm running to the last ')' since a
 * thread may name itself with any bytes; the JVM names its compilers "C1 CompilerThread0", "C2 CompilerThread1",
 * which the kernel cuts to 15 bytes.
 */
static long nb_compiler_ticks(const char *stat, size_t len) {
    static const char name[] = " CompilerThre";
    const char *limit = stat + len, *open = memchr(stat, '(', len), *close = NULL;
    for (const char *q = limit; q > stat && close == NULL; q--) {
        close = q[-1] == ')' ? q - 1 : NULL;
    }
    if (open == NULL || close == NULL || close - open - 1 != 2 + (long)sizeof name - 1 || open[1] != 'C'
        || (open[2] != '1' && open[2] != '2') || memcmp(open + 3, name, sizeof name - 1) != 0) {
        return -1;
    }
    const char *p = close + 1, *end = NULL, *field = NULL;
    long long utime = -1, stime = -1;
    /* The state, then ten fields (some may be negative: tty_nr, tpgid), then utime and stime. */
    for (int i = 0; i < 13; i++, p = end) {
        if ((field = nb_stat_field(p, limit, &end)) == NULL) {
            return -1;
        }
        if ((i == 11 && parse_digits(field, end, 0, LONG_MAX, &utime) != 0)
            || (i == 12 && parse_digits(field, end, 0, LONG_MAX, &stime) != 0)) {
            return -1;
        }
    }
    return utime > LONG_MAX - stime ? -1 : utime + stime;
}

static void nb_compilers(nb_compilers_t *c) {
    c->n = 0;
    DIR *d = opendir("/proc/self/task");
    if (d == NULL) {
        return;
    }
    for (struct dirent *e; (e = readdir(d)) != NULL && c->n < NB_MAX_COMPILERS;) {
        char path[300], line[512];
        snprintf(path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
        FILE *f = e->d_name[0] == '.' ? NULL : fopen(path, "r");
        if (f == NULL) {
            continue;
        }
        size_t len = fread(line, 1, sizeof line - 1, f);
        fclose(f);
        line[len] = 0;
        long ticks = nb_compiler_ticks(line, len);
        if (ticks >= 0) {
            c->tid[c->n] = atol(e->d_name);
            c->ticks[c->n++] = ticks;
        }
    }
    closedir(d);
}

/* Ticks the compilers took since before; a thread that came since counts from zero, one that went is lost. */
static long nb_compiled_since(const nb_compilers_t *before) {
    nb_compilers_t now_c;
    nb_compilers(&now_c);
    long sum = 0;
    for (int i = 0; i < now_c.n; i++) {
        long was = 0;
        for (int j = 0; j < before->n; j++) {
            was = before->tid[j] == now_c.tid[i] ? before->ticks[j] : was;
        }
        sum += now_c.ticks[i] - was;
    }
    return sum;
}

/* 8-byte round trips through the plugin, after warm untimed ones; rank 0 times them (us). Receives are posted
 * before they are needed. */
static int nb_plugin_pingpong(nb_t *b, long warm, long iterations, double *rtt, unsigned char *sbuf, void *smh,
                              unsigned char *rbuf, void *rmh) {
    void *recv = nb_post(b, 0, rbuf, 8, rmh);
    for (long i = -warm; i < iterations; i++) {
        if (recv == NULL) {
            return -1;
        }
        if (b->rank == 0) {
            double t0 = now();
            if (nb_wait(b, nb_post(b, 1, sbuf, 8, smh)) != 0 || nb_wait(b, recv) != 0) {
                return -1;
            }
            double t1 = now();
            if (i >= 0) {
                rtt[i] = (t1 - t0) * 1e6;
            }
            recv = i + 1 < iterations ? nb_post(b, 0, rbuf, 8, rmh) : NULL;
            if (i + 1 < iterations && recv == NULL) {
                return -1;
            }
        } else {
            if (nb_wait(b, recv) != 0) {
                return -1;
            }
            recv = i + 1 < iterations ? nb_post(b, 0, rbuf, 8, rmh) : NULL;
            if ((i + 1 < iterations && recv == NULL) || nb_wait(b, nb_post(b, 1, sbuf, 8, smh)) != 0) {
                return -1;
            }
        }
        if (i + 1 >= iterations) {
            break;
        }
    }
    return 0;
}

/* 8-byte round trips over the plain socket after warm untimed ones, each read waiting as wait says (NB_BLOCK,
 * NB_SPIN or NB_YIELD). */
static int nb_socket_pingpong(nb_t *b, long warm, long iterations, double *rtt, int wait) {
    char m[8] = {0};
    for (long i = -warm; i < iterations; i++) {
        double t0 = now();
        if (b->rank == 0) {
            if (nb_write_all(b->sock, m, 8) != 0 || nb_read_all(b->sock, m, 8, wait) != 0) {
                return -1;
            }
        } else if (nb_read_all(b->sock, m, 8, wait) != 0 || nb_write_all(b->sock, m, 8) != 0) {
            return -1;
        }
        if (i >= 0) {
            rtt[i] = (now() - t0) * 1e6;
        }
    }
    return 0;
}

/*
 * The 8-byte round trip of the plugin and of the plain socket three ways (blocking, polling in a spin, polling with a
 * yield after each empty look), in blocks taken in turns (NB_BLOCKS, or one per round trip when there are fewer), so
 * that a spell of noise from the machine's neighbours (which moved a polling socket's median from 9 to 14 us between
 * runs a minute apart) falls on every way alike. rtt holds 4 * iterations doubles, way w's from w * iterations; ratio
 * gets, per block, the plugin's median over the socket's polling with yields, as the plugin's host polls, or with
 * --plugin-only (no socket blocks) the plugin's median in microseconds. Returns the number of blocks, -1 on failure.
 */
static int nb_pingpongs(nb_t *b, long iterations, double *rtt, double *ratio, unsigned char *sbuf, void *smh,
                        unsigned char *rbuf, void *rmh) {
    static const int socket_wait[4] = {-1, NB_BLOCK, NB_SPIN, NB_YIELD};
    int blocks = nb_blocks(iterations);
    for (int k = 0; k < blocks; k++) {
        long n = nb_block_len(iterations, blocks, k);
        long warm = k == 0 ? 1000 : 0;
        double med[4];
        for (int way = 0; way < (b->plugin_only ? 1 : 4); way++) {
            double *at = rtt + way * iterations + iterations / blocks * k;
            if (nb_barrier(b) != 0 || (way == 0 ? nb_plugin_pingpong(b, warm, n, at, sbuf, smh, rbuf, rmh)
                                                : nb_socket_pingpong(b, warm, n, at, socket_wait[way])) != 0) {
                return -1;
            }
            /* Sorts the block in place: the way's quantiles over all blocks do not depend on the order. */
            med[way] = nb_quantiles(at, n).median;
        }
        ratio[k] = b->plugin_only ? med[0] : med[0] / med[3];
    }
    return blocks;
}

static void run_netbench(int rank, const char *file, const char *peer_ip, const size_t *sizes, int nsizes,
                         size_t bytes, long iterations, int rounds, int warmup_passes, int plugin_only) {
    plugin_t p = {.version = 12, .table = dlsym(plugin_lib, "ncclNetPlugin_v12")};
    nb_t b = {.p = &p, .rank = rank, .sock = -1, .plugin_only = plugin_only};
    int ndev = 0;
    if (p.table == NULL || h_init(&p, 0x4E42) != ccl_success || h_devices(&p, &ndev) != ccl_success || ndev < 1) {
        check(0, "netbench: init and devices");
        return;
    }
    char given[sizeof b.name];
    nb_printable(*(const char *const *)p.table, given, sizeof given);
    nb_label(given, b.name, sizeof b.name);
    if (rank == 0) {
        if (strcmp(given, b.name) == 0) {
            printf("netbench: the plugin's table ncclNetPlugin_v12 names it %s\n", b.name);
        } else {
            printf("netbench: the plugin's table ncclNetPlugin_v12 names it %s; its figures are labelled %s\n",
                   given[0] != '\0' ? given : "nothing", b.name);
        }
    }
    b.sock = nb_socket(rank, file, peer_ip);
    if (b.sock < 0 || nb_connect(&b, file) != 0) {
        check(0, "netbench: plain socket and plugin comms connected (socket %d)", b.sock);
        return;
    }
    char cc[16] = "";
    socklen_t cclen = sizeof cc - 1;
    if (rank == 0 && getsockopt(b.sock, IPPROTO_TCP, TCP_CONGESTION, cc, &cclen) == 0) {
        cc[cclen < sizeof cc ? cclen : sizeof cc - 1] = '\0';
        printf("netbench: the plain socket's congestion control: %s (--socket-cc %s)\n", cc,
               nb_socket_cc[0] != '\0' ? nb_socket_cc : "\"\", the host's default");
    }
    size_t largest = 8;
    for (int i = 0; i < nsizes; i++) {
        largest = sizes[i] > largest ? sizes[i] : largest;
    }
    size_t ring_bytes = largest * NB_INFLIGHT;
    unsigned char *ring = aligned_alloc(4096, ring_bytes);
    unsigned char *sbuf = aligned_alloc(64, 64), *rbuf = aligned_alloc(64, 64);
    double *rtt = calloc((size_t)iterations * 4, sizeof(double));
    double ratio[NB_BLOCKS];
    memset(ring, rank + 1, ring_bytes);
    void *ring_mh = NULL, *smh = NULL, *rmh = NULL;
    if (h_reg(&p, rank == 1 ? b.sc : b.rc, ring, ring_bytes, &ring_mh) != ccl_success
        || h_reg(&p, b.sc, sbuf, 64, &smh) != ccl_success || h_reg(&p, b.rc, rbuf, 64, &rmh) != ccl_success) {
        check(0, "netbench: regMr");
        return;
    }
    int ok = 1, pass = 0;
    double warm_t0 = now();
    nb_compilers_t compilers;
    /* Round 0 warms both ways up (the plugin's JVM starts cold) in passes, at an eighth of the bytes; its first pass
     * is printed as round 0, the cold figures. */
    for (int round = warmup_passes > 0 ? 0 : 1; round <= rounds && ok;) {
        double pass_t0 = now();
        if (round == 0) {
            nb_compilers(&compilers);
        }
        int shown = round > 0 || pass == 0;
        for (int i = 0; i < nsizes && ok; i++) {
            size_t size = sizes[i];
            size_t round_bytes = round == 0 ? bytes / 8 : bytes;
            /* At least one message: the warm-up round's eighth of a few bytes is none. */
            long count = round_bytes < size ? 1 : (long)((round_bytes + size - 1) / size);
            double seconds[2] = {0, 0}, block_ratio[NB_BLOCKS];
            long isend_null = 0;
            nb_gaps_t gaps[2] = {{0, 0, 0}, {0, 0, 0}}; /* the plugin's, the plain socket's */
            int blocks =
                ok ? nb_bandwidths(&b, ring, size, ring_mh, count, seconds, block_ratio, &isend_null, gaps) : -1;
            ok = blocks > 0;
            if (ok && rank == 1 && shown) {
                printf("netbench: round %d size %zu: isend answered not-yet %ld times for %ld messages\n", round, size,
                       isend_null, count);
            }
            if (ok && rank == 0 && shown && b.plugin_only) {
                double gbps = nb_gbps(count, size, seconds[0]), first = block_ratio[0],
                       last = block_ratio[blocks - 1];
                nb_spread_t q = nb_spread(block_ratio, blocks);
                printf("netbench: round %d size %zu x %ld: %s %.2f Gb/s (no socket blocks)\n", round, size, count,
                       b.name, gbps);
                printf("netbench: round %d size %zu in %d block%s: %s Gb/s per block %.2f-%.2f, median %.2f, first "
                       "%.2f, last %.2f\n", round, size, blocks, blocks == 1 ? "" : "s", b.name, q.lo, q.hi,
                       q.median, first, last);
            } else if (ok && rank == 0 && shown) {
                double gbps[2];
                for (int way = 0; way < 2; way++) {
                    gbps[way] = nb_gbps(count, size, seconds[way]);
                }
                printf("netbench: round %d size %zu x %ld: %s %.2f Gb/s, socket %.2f Gb/s, ratio %.2f\n", round,
                       size, count, b.name, gbps[0], gbps[1], gbps[0] / gbps[1]);
                double first = block_ratio[0], last = block_ratio[blocks - 1];
                nb_spread_t q = nb_spread(block_ratio, blocks);
                printf("netbench: round %d size %zu in %d block%s taken in turns with the socket's: %s over "
                       "socket per block, %.2f-%.2f, median %.2f, first %.2f, last %.2f\n", round, size, blocks,
                       blocks == 1 ? "" : "s", b.name, q.lo, q.hi, q.median, first, last);
            }
            if (ok && rank == 0 && shown) {
                printf("netbench: round %d size %zu gaps between received messages: ", round, size);
                nb_print_gaps(b.name, &gaps[0]);
                if (!b.plugin_only) {
                    printf("; ");
                    nb_print_gaps("socket", &gaps[1]);
                }
                printf("\n");
            }
        }
        nb_lat_t lat[4];
        /* the plugin; the socket blocking, polling in a spin, polling with yields as the plugin's host does */
        int blocks = ok ? nb_pingpongs(&b, iterations, rtt, ratio, sbuf, smh, rbuf, rmh) : -1;
        ok = blocks > 0;
        for (int way = 0; way < (b.plugin_only ? 1 : 4) && ok; way++) {
            lat[way] = nb_quantiles(rtt + way * iterations, iterations);
        }
        if (ok && rank == 0 && shown && b.plugin_only) {
            nb_spread_t q = nb_spread(ratio, blocks);
            printf("netbench: round %d 8-byte round trip over %ld: %s median %.1f us p99 %.1f us (no socket blocks); "
                   "median per block %.1f-%.1f us\n", round, iterations, b.name, lat[0].median, lat[0].p99, q.lo,
                   q.hi);
        } else if (ok && rank == 0 && shown) {
            printf("netbench: round %d 8-byte round trip over %ld: %s median %.1f us p99 %.1f us; socket blocking "
                   "median %.1f us p99 %.1f us; socket polling median %.1f us p99 %.1f us; ratio median %.2f "
                   "(blocking) %.2f (polling), p99 %.2f (blocking); socket polling with a yield after each empty look "
                   "median %.1f us p99 %.1f us, ratio median %.2f\n", round, iterations, b.name, lat[0].median,
                   lat[0].p99, lat[1].median, lat[1].p99, lat[2].median, lat[2].p99, lat[0].median / lat[1].median,
                   lat[0].median / lat[2].median, lat[0].p99 / lat[1].p99, lat[3].median, lat[3].p99,
                   lat[0].median / lat[3].median);
            nb_spread_t q = nb_spread(ratio, blocks);
            printf("netbench: round %d 8-byte round trip in %d blocks taken in turns with the sockets': %s median "
                   "over the median polling with a yield, per block, %.2f-%.2f, median %.2f\n", round, blocks, b.name,
                   q.lo, q.hi, q.median);
        }
        if (ok && round == 0) {
            double took = now() - pass_t0;
            long ticks = nb_compiled_since(&compilers);
            int mine = (int)(1000.0 * (double)ticks / (double)sysconf(_SC_CLK_TCK) / took), theirs = 0;
            ok = nb_swap(&b, mine, &theirs) == 0;
            pass++;
            int quiet = mine < NB_QUIET_PERMILLE && theirs < NB_QUIET_PERMILLE;
            if (ok && (quiet || pass >= warmup_passes || now() - warm_t0 >= NB_WARMUP_SECONDS)) {
                if (rank == 0) {
                    printf("netbench: round 0 was the warm-up's first pass (cold); the warm-up ran %d pass%s in %.1f s, "
                           "%s; in its last pass the compilers took %.1f%% of rank 0's time and %.1f%% of rank 1's\n",
                           pass, pass == 1 ? "" : "es", now() - warm_t0,
                           quiet ? "until both processes' JIT compilers were busy for under a twentieth of a pass"
                                 : "and stopped with the compilers still busy", mine / 10.0, theirs / 10.0);
                }
                round = 1;
            }
        } else {
            round++;
        }
    }
    check(ok, "netbench: rank %d ran every phase", rank);
    nb_barrier(&b);
    h_dereg(&p, rank == 1 ? b.sc : b.rc, ring_mh);
    h_dereg(&p, b.sc, smh);
    h_dereg(&p, b.rc, rmh);
    h_close_send(&p, b.sc);
    h_close_recv(&p, b.rc);
    close(b.sock);
    h_finalize(&p);
    free(ring), free(sbuf), free(rbuf), free(rtt);
}

/* ---- main ---- */
/* A whole number from lo to hi, the whole of s in decimal, into *out; -1 otherwise (see parse_digits). */
static int parse_count(const char *s, long long lo, long long hi, long long *out) {
    return s == NULL ? -1 : parse_digits(s, s + strlen(s), lo, hi, out);
}

/* netbench's message sizes: 1 byte to NB_MAX_MESSAGE each, as many as NB_MAX_SIZES, NB_INFLIGHT of the largest in
 * the ring. */
#define NB_MAX_MESSAGE (1LL << 27)

/* "S,S,...": one to NB_MAX_SIZES sizes, each a count from 1 to NB_MAX_MESSAGE, into sizes; the count, or -1. */
static int parse_sizes(const char *s, size_t *sizes) {
    int n = 0;
    char item[32];
    for (const char *c = s; c != NULL; n++) {
        const char *comma = strchr(c, ',');
        size_t len = comma == NULL ? strlen(c) : (size_t)(comma - c);
        long long v;
        if (n == NB_MAX_SIZES || len >= sizeof item) {
            return -1;
        }
        memcpy(item, c, len);
        item[len] = '\0';
        if (parse_count(item, 1, NB_MAX_MESSAGE, &v) != 0) {
            return -1;
        }
        sizes[n] = (size_t)v;
        c = comma == NULL ? NULL : comma + 1;
    }
    return n;
}

/*
 * The harness's own parsers on good, malformed, cut-short and hostile input, without the plugin: the /proc stat
 * lines netbench's warm-up reads and the options it takes.
 */
static void run_selftest(void) {
    const char *c1 = "4242 (C1 CompilerThre) S 1 4200 4200 0 -1 4194368 12 0 0 0 30 7 0 0 20 0 1 0 99 1 2 3";
    long t = nb_compiler_ticks(c1, strlen(c1));
    check(t == 37, "stat: a C1 compiler thread's utime 30 and stime 7 make 37 (got %ld)", t);
    const char *c2 = "7 (C2 CompilerThre) R 1 1 1 0 -1 0 0 0 0 0 18446744073709551615 0";
    t = nb_compiler_ticks(c2, strlen(c2));
    check(t == -1, "stat: a utime beyond a long is refused (got %ld)", t);
    struct {
        const char *line, *why;
    } refused[] = {
        {"", "empty"},
        {"4242", "no comm"},
        {"4242 (C2 CompilerThre", "no closing parenthesis"},
        {"4242 C2 CompilerThre) S 1 2 3 4 5 6 7 8 9 10 11 12", "no opening parenthesis"},
        {"4242 (C2 CompilerThre) S 1 4200 4200 0 -1 4194368 12 0 0 0 30", "cut before stime"},
        {"4242 (C2 CompilerThre) S 1 4200 4200 0 -1 4194368 12 0 0 0", "cut before utime"},
        {"4242 (C2 CompilerThre)", "cut after the comm"},
        {"4242 (C2 CompilerThre) ", "cut after the separator"},
        {"4242 (C2 CompilerThre) S 1 4200 4200 0 -1 4194368 12 0 0 0 -30 7", "a negative utime"},
        {"4242 (C2 CompilerThre) S 1 4200 4200 0 -1 4194368 12 0 0 0 3x 7", "a utime with a letter"},
        {"4242 (C2 CompilerThre) S 1 4200 4200 0 -1 4194368 12 0 0 0 30  7", "two spaces between fields"},
        {"4242 (C2 CompilerThre)S 1 4200 4200 0 -1 4194368 12 0 0 0 30 7", "no space after the comm"},
        {"4242 (VM Thread) S 1 4200 4200 0 -1 4194368 12 0 0 0 30 7", "another thread"},
        {"4242 (C3 CompilerThre) S 1 4200 4200 0 -1 4194368 12 0 0 0 30 7", "not C1 or C2"},
        {"4242 (C2 CompilerThread) S 1 4200 4200 0 -1 4194368 12 0 0 0 30 7", "a comm longer than the kernel keeps"},
        {"4242 (C2 Compil) S 1 4200 4200 0 -1 4194368 12 0 0 0 30 7", "a comm cut shorter"},
        {"4242 (() S 1 2 3 4 5 6 7 8 9 10 11 12", "a comm of one parenthesis"},
        {"4242 (x) (C2 CompilerThre) S 1 2 3 4 5 6 7 8 9 10 11 12", "a comm naming a compiler inside another"},
        {"4242 )C2 CompilerThre( S 1 2 3 4 5 6 7 8 9 10 11 12", "parentheses the wrong way round"},
        {"(", "one opening parenthesis"},
        {")", "one closing parenthesis"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        t = nb_compiler_ticks(refused[i].line, strlen(refused[i].line));
        check(t == -1, "stat: refused, %s (got %ld)", refused[i].why, t);
    }
    /* A comm may hold any bytes, ')' and spaces among them: the last ')' ends it. */
    const char *tricky = "9 (C1 CompilerThre) S 1 2 3 4 5 6 7 8 9 10 11 12) S 1 2 3 4 5 6 7 8 9 10 11 12";
    t = nb_compiler_ticks(tricky, strlen(tricky));
    check(t == -1, "stat: a comm with ')' inside is not taken for a compiler's (got %ld)", t);
    /* Only the len bytes given count: the same line cut short in place, and bytes past a NUL. */
    t = nb_compiler_ticks(c1, strlen(c1) - 50);
    check(t == -1, "stat: a line cut short by its length is refused (got %ld)", t);
    char nul[128];
    const char cut[] = {' ', '3', '0', '\0', ' ', '7'};
    size_t at = (size_t)(strstr(c1, " 30 7") - c1);
    memcpy(nul, c1, at);
    memcpy(nul + at, cut, sizeof cut);
    t = nb_compiler_ticks(nul, at + sizeof cut);
    check(t == -1, "stat: a NUL inside the line is refused (got %ld)", t);
    char big[600];
    memset(big, 'x', sizeof big);
    big[0] = '(';
    t = nb_compiler_ticks(big, sizeof big);
    check(t == -1, "stat: 600 bytes of no line are refused (got %ld)", t);

    long long v = 0;
    check(parse_count("65536", 1, NB_MAX_MESSAGE, &v) == 0 && v == 65536, "count: 65536");
    const char *bad[] = {"", "0", "-1", "+5", "12k", " 7", "7 ", "0x10", "134217729", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        check(parse_count(bad[i], 1, NB_MAX_MESSAGE, &v) != 0, "count: '%s' refused", bad[i]);
    }
    size_t sizes[NB_MAX_SIZES];
    int n = parse_sizes("8,65536,134217728", sizes);
    check(n == 3 && sizes[0] == 8 && sizes[1] == 65536 && sizes[2] == 134217728, "sizes: 8,65536,134217728 (got %d)",
          n);
    const char *bad_sizes[] = {"", ",", "8,", ",8", "8,,9", "8;9", "1,2,3,4,5,6,7,8,9", "65536,0",
                               "123456789012345678901234567890123"};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
        check(parse_sizes(bad_sizes[i], sizes) == -1, "sizes: '%s' refused", bad_sizes[i]);
    }

    /* The label netbench gives a plugin's figures, from the name in its table (a table's first field). */
    struct {
        const char *given, *label;
    } names[] = {
        {"xdlink", "xdlink"},
        {"Socket", "NET/Socket"},
        {"SOCKET", "NET/Socket"},
        {NULL, "plugin"},
        {"", "plugin"},
        {"IB spaced\tname\x01", "IB_spaced_name_"},
        {"0123456789012345678901234567890123456789", "01234567890123456789012345678901"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char given[33], label[33];
        nb_printable(names[i].given, given, sizeof given);
        nb_label(given, label, sizeof label);
        check(strcmp(label, names[i].label) == 0, "name: '%s' labelled '%s' (got '%s')",
              names[i].given ? given : "(null)", names[i].label, label);
    }
}


static int parse_versions(const char *s, int *out) {
    int n = 0;
    while (*s != '\0' && n < 7) {
        out[n++] = atoi(s);
        const char *c = strchr(s, ',');
        if (c == NULL) {
            break;
        }
        s = c + 1;
    }
    return n;
}

/*
 * Two processes end as a job's ranks do, at a barrier: the sender says it is done, and the receiver does not exit
 * (taking its sockets with it) while the sender may still be reading the acknowledgements of its last sends.
 */
static void final_barrier(const char *handle_file, int sender) {
    char done[512];
    snprintf(done, sizeof done, "%s.done", handle_file);
    if (sender) {
        FILE *f = fopen(done, "w");
        if (f != NULL) {
            fclose(f);
        }
        return;
    }
    for (int i = 0; i < 60000; i++) { /* at most about a minute */
        if (access(done, F_OK) == 0) {
            return;
        }
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    check(0, "the sender reached the final barrier");
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    gethostname(hostname, sizeof hostname);
    if (argc < 2) {
        fprintf(stderr, "usage: %s threads|listen|connect|pingpong|netbench|selftest [--speed MBPS] [--handle FILE] "
                        "[--versions 12,11,...] [--pci] [--rccl] [--iterations N] [--deadline SECONDS] [--rank R] "
                        "[--peer IP] [--sizes S,...] [--bytes N] [--rounds N] [--warmup-passes N | --no-warmup]\n",
                argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    if (strcmp(mode, "selftest") == 0) {
        run_selftest();
        printf("harness: %d passed, %d failed\n", passed, failed);
        return failed == 0 ? 0 : 1;
    }
    long long n = 0;
    int speed = 0, loopback = 1, nversions = 7, reopen = 1;
    int versions[7] = {12, 11, 10, 9, 8, 7, 6};
    const char *handle_file = NULL, *prefix = "libnccl-net";
    long iterations = 10000;
    int rank = -1, nsizes = 3, rounds = 1, warmup_passes = 8, plugin_only = 0;
    size_t sizes[NB_MAX_SIZES] = {65536, 1048576, 8388608}, bytes = (size_t)1 << 30;
    const char *peer = "127.0.0.1";
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--speed") == 0 && i + 1 < argc) {
            speed = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--deadline") == 0 && i + 1 < argc) {
            wait_seconds = atof(argv[++i]);
            if (!(wait_seconds > 0)) {
                fprintf(stderr, "--deadline wants a positive number of seconds\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--handle") == 0 && i + 1 < argc) {
            handle_file = argv[++i];
        } else if (strcmp(argv[i], "--versions") == 0 && i + 1 < argc) {
            nversions = parse_versions(argv[++i], versions);
        } else if (strcmp(argv[i], "--pci") == 0) {
            loopback = 0;
        } else if (strcmp(argv[i], "--rccl") == 0) {
            prefix = "librccl-net";
        } else if (strcmp(argv[i], "--no-reopen") == 0) {
            reopen = 0;
        } else if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
            if (parse_count(argv[++i], 1, 10000000, &n) != 0) {
                fprintf(stderr, "--iterations takes a whole number from 1 to 10000000, got '%s'\n", argv[i]);
                return 2;
            }
            iterations = (long)n;
        } else if (strcmp(argv[i], "--rank") == 0 && i + 1 < argc) {
            rank = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--peer") == 0 && i + 1 < argc) {
            peer = argv[++i];
        } else if (strcmp(argv[i], "--bytes") == 0 && i + 1 < argc) {
            if (parse_count(argv[++i], 1, 1LL << 40, &n) != 0) {
                fprintf(stderr, "--bytes takes a whole number from 1 to 2^40, got '%s'\n", argv[i]);
                return 2;
            }
            bytes = (size_t)n;
        } else if (strcmp(argv[i], "--no-warmup") == 0) {
            warmup_passes = 0;
        } else if (strcmp(argv[i], "--plugin-only") == 0) {
            plugin_only = 1;
        } else if (strcmp(argv[i], "--socket-cc") == 0 && i + 1 < argc) {
            nb_socket_cc = argv[++i];
            if (strlen(nb_socket_cc) > 15) {
                fprintf(stderr, "--socket-cc takes a congestion control's name of at most 15 characters, got '%s'\n",
                        nb_socket_cc);
                return 2;
            }
        } else if (strcmp(argv[i], "--warmup-passes") == 0 && i + 1 < argc) {
            if (parse_count(argv[++i], 1, 1000, &n) != 0) {
                fprintf(stderr, "--warmup-passes takes a whole number from 1 to 1000 (--no-warmup for none), got "
                                "'%s'\n", argv[i]);
                return 2;
            }
            warmup_passes = (int)n;
        } else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            if (parse_count(argv[++i], 1, 1000, &n) != 0) {
                fprintf(stderr, "--rounds takes a whole number from 1 to 1000, got '%s'\n", argv[i]);
                return 2;
            }
            rounds = (int)n;
        } else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
            if ((nsizes = parse_sizes(argv[++i], sizes)) < 0) {
                fprintf(stderr, "--sizes takes 1 to %d sizes in bytes, each from 1 to %lld, split by commas, got "
                                "'%s'\n", NB_MAX_SIZES, NB_MAX_MESSAGE, argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (open_plugin(prefix) != 0) {
        check(0, "the plugin loads");
        printf("harness: %d passed, %d failed\n", passed, failed);
        return 1;
    }
    int newest = find_newest();
    check(newest == 12, "the loader picks ncclNetPlugin_v12 first (got v%d)", newest);
    if (strcmp(mode, "netbench") == 0) {
        if ((rank != 0 && rank != 1) || handle_file == NULL || nsizes < 1 || bytes < 1 || iterations < 1) {
            fprintf(stderr, "netbench needs --rank 0|1 and --handle FILE; sizes, bytes, iterations above 0\n");
            return 2;
        }
        run_netbench(rank, handle_file, peer, sizes, nsizes, bytes, iterations, rounds, warmup_passes, plugin_only);
    } else if (strcmp(mode, "pingpong") == 0) {
        run_pingpong(iterations);
    } else {
        for (int i = 0; i < nversions; i++) {
            run_version(versions[i], mode, speed, loopback, handle_file);
        }
        if (handle_file != NULL) {
            final_barrier(handle_file, strcmp(mode, "connect") == 0);
        }
        if (reopen && strcmp(mode, "threads") == 0) {
            /* NCCL unloads the plugin after the last communicator and may load it again for the next one. */
            INFO("Unloading plugin %s", plugin_name);
            check(dlclose(plugin_lib) == 0, "dlclose");
            plugin_lib = NULL;
            check(open_plugin(prefix) == 0 && find_newest() == 12, "reopen after dlclose");
            if (plugin_lib != NULL) {
                run_version(12, mode, speed, loopback, NULL);
            }
        }
    }
    printf("harness: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
