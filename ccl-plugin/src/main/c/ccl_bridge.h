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

#define XDL_API_REVISION 1
#define XDL_MAX_RECVS 8

typedef struct {
    int64_t (*init)(int32_t abi_version, uint64_t comm_id, int32_t traffic_class);
    int64_t (*devices)(void);
    int64_t (*properties)(int32_t abi_version, int32_t dev, void *props);
    int64_t (*listen)(uint64_t ctx, int32_t dev, void *handle);
    int64_t (*connect)(uint64_t ctx, int32_t dev, int32_t traffic_class, void *handle);
    int64_t (*accept)(uint64_t listen_comm);
    int64_t (*reg_mr)(uint64_t comm, void *data, uint64_t size, int32_t type);
    int64_t (*dereg_mr)(uint64_t comm, uint64_t mhandle);
    int64_t (*isend)(uint64_t send_comm, void *data, uint64_t size, int32_t tag, uint64_t mhandle);
    int64_t (*irecv)(uint64_t recv_comm, int32_t n, void **data, uint64_t *sizes, int32_t *tags, void **mhandles);
    int64_t (*iflush)(uint64_t recv_comm, int32_t n, void **data, int32_t *sizes, void **mhandles);
    int64_t (*test)(uint64_t request, int32_t *sizes);
    int64_t (*close_send)(uint64_t send_comm);
    int64_t (*close_recv)(uint64_t recv_comm);
    int64_t (*close_listen)(uint64_t listen_comm);
    int64_t (*finalize)(uint64_t ctx);
} xdl_java_api_t;

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
