/*
 * The seven exported tables, ncclNetPlugin_v6 .. ncclNetPlugin_v12, and their trampolines: thin per-version
 * adapters that turn each ABI's argument shapes into the version-neutral Java entries of ccl_bridge.h.
 *
 * The tables are statically initialised data, valid from dlopen on: v12 is used in place and older tables are
 * copied by the host's compat layer, so the slots can never point at upcall stubs that appear later. Until Java
 * has registered, every slot but init answers ncclInternalError.
 *
 * Arguments the host owns and we must not touch: sendDevComm/recvDevComm (RCCL may pass a {uint32_t chId}* there)
 * and the profiler handles. The 0x1 that NCCL may leave in *request on irecv is overwritten, never read.
 */
#define _GNU_SOURCE /* clock_gettime and ppoll, for ccl_bridge.h's parked read */
#include <string.h>

#include "ccl_bridge.h"

#define EXPORT __attribute__((visibility("default")))
#define XDL_NAME "xdlink"

/* The context of the per-process init of v6 .. v10, whose listen and connect carry no ctx. */
static _Atomic uint64_t legacy_ctx;

#define API_OR_FAIL(api)                   \
    const xdl_java_api_t *api = xdl_api(); \
    if (api == NULL) {                     \
        return ccl_internal_error;         \
    }                                      \
    xdl_attach_thread()

static inline void *as_ptr(int64_t id) {
    return (void *)(uintptr_t)id;
}

/* A pointer as the 64-bit number Java takes: a handle's id, or a host buffer's address (see xdl_java_api_t). */
static inline uint64_t as_id(const void *p) {
    return (uint64_t)(uintptr_t)p;
}

/* Writes an out-param from an entry's result; on error the out-param becomes NULL so no stale value survives. */
static inline ccl_result_t put(void **out, int64_t r) {
    if (out != NULL) {
        *out = r > 0 ? as_ptr(r) : NULL;
    }
    return xdl_status(r);
}

/* ---- version-neutral helpers used by every adapter ---- */

static ccl_result_t init_legacy(int version, ccl_logger_t logger, int traffic_class) {
    xdl_set_logger(logger);
    ccl_result_t st = xdl_ensure_java();
    if (st != ccl_success) {
        return st;
    }
    xdl_attach_thread();
    int64_t r = xdl_api()->init(version, 0, traffic_class);
    if (r > 0) {
        legacy_ctx = (uint64_t)r;
    }
    return xdl_status(r);
}

static ccl_result_t init_per_comm(int version, void **ctx, uint64_t comm_id, ccl_comm_config_t *config,
                                  ccl_logger_t logger) {
    if (ctx == NULL) {
        return ccl_internal_error;
    }
    *ctx = NULL;
    xdl_set_logger(logger);
    ccl_result_t st = xdl_ensure_java();
    if (st != ccl_success) {
        return st;
    }
    int traffic_class = config != NULL ? config->traffic_class : -1;
    xdl_attach_thread();
    return put(ctx, xdl_api()->init(version, comm_id, traffic_class));
}

static ccl_result_t devices(int *ndev) {
    API_OR_FAIL(api);
    if (ndev == NULL) {
        return ccl_internal_error;
    }
    int64_t r = api->devices();
    *ndev = r > 0 ? (int)r : 0;
    return xdl_status(r);
}

static ccl_result_t properties(int version, int dev, void *props) {
    API_OR_FAIL(api);
    if (props == NULL) {
        return ccl_internal_error;
    }
    return xdl_status(api->properties(version, dev, props));
}

static ccl_result_t do_listen(uint64_t ctx, int dev, void *handle, void **listen_comm) {
    API_OR_FAIL(api);
    if (handle == NULL || listen_comm == NULL) {
        return ccl_internal_error;
    }
    return put(listen_comm, api->listen(ctx, dev, handle));
}

static ccl_result_t do_connect(uint64_t ctx, int dev, int traffic_class, void *handle, void **send_comm) {
    API_OR_FAIL(api);
    if (handle == NULL || send_comm == NULL) {
        return ccl_internal_error;
    }
    return put(send_comm, api->connect(ctx, dev, traffic_class, handle));
}

static ccl_result_t do_accept(void *listen_comm, void **recv_comm) {
    API_OR_FAIL(api);
    if (recv_comm == NULL) {
        return ccl_internal_error;
    }
    return put(recv_comm, api->accept(as_id(listen_comm)));
}

static ccl_result_t do_reg_mr(void *comm, void *data, size_t size, int type, void **mhandle) {
    API_OR_FAIL(api);
    if (mhandle == NULL) {
        return ccl_internal_error;
    }
    return put(mhandle, api->reg_mr(as_id(comm), data, (uint64_t)size, type));
}

static ccl_result_t do_dereg_mr(void *comm, void *mhandle) {
    API_OR_FAIL(api);
    return xdl_status(api->dereg_mr(as_id(comm), as_id(mhandle)));
}

static ccl_result_t do_isend(void *send_comm, void *data, size_t size, int tag, void *mhandle, void **request) {
    const xdl_java_api_t *api = xdl_api();
    if (api == NULL || request == NULL) {
        return ccl_internal_error;
    }
    /* A host retries a NULL isend in a loop until the peer's receive is advertised; most tries end here. */
    if ((as_id(mhandle) & 7) == XDL_KIND_MEMORY && xdl_surely_starved(api, as_id(send_comm))) {
        *request = NULL;
        return ccl_success;
    }
    xdl_attach_thread();
    return put(request, api->isend(as_id(send_comm), as_id(data), (uint64_t)size, tag, as_id(mhandle)));
}

static ccl_result_t do_irecv(void *recv_comm, int n, void **data, uint64_t *sizes, int *tags, void **mhandles,
                             void **request) {
    API_OR_FAIL(api);
    if (request == NULL) {
        return ccl_internal_error;
    }
    *request = NULL;
    if (n < 1 || n > XDL_MAX_RECVS || data == NULL || sizes == NULL || tags == NULL || mhandles == NULL) {
        return ccl_internal_error;
    }
    return put(request, api->irecv(as_id(recv_comm), n, as_id(data), as_id(sizes), as_id(tags),
                                   as_id(mhandles)));
}

/* irecv of v6 .. v8 passes int sizes; widen them into the neutral size_t array. */
static ccl_result_t do_irecv_int(void *recv_comm, int n, void **data, int *sizes, int *tags, void **mhandles,
                                 void **request) {
    if (request == NULL) {
        return ccl_internal_error;
    }
    *request = NULL;
    if (n < 1 || n > XDL_MAX_RECVS || sizes == NULL) {
        return ccl_internal_error;
    }
    uint64_t wide[XDL_MAX_RECVS];
    for (int i = 0; i < n; i++) {
        if (sizes[i] < 0) {
            return ccl_internal_error;
        }
        wide[i] = (uint64_t)sizes[i];
    }
    return do_irecv(recv_comm, n, data, wide, tags, mhandles, request);
}

static ccl_result_t do_iflush(void *recv_comm, int n, void **data, int *sizes, void **mhandles, void **request) {
    API_OR_FAIL(api);
    if (request == NULL) {
        return ccl_internal_error;
    }
    *request = NULL;
    if (n < 0 || n > XDL_MAX_RECVS) {
        return ccl_internal_error;
    }
    return put(request, api->iflush(as_id(recv_comm), n, data, sizes, mhandles));
}

/* When the calling thread's test() calls began to find nothing done and no bytes, or 0: see xdl_quiet_wait. */
static _Thread_local int64_t quiet_since;

static ccl_result_t do_test(void *request, int *done, int *sizes) {
    const xdl_java_api_t *api = xdl_api();
    if (api == NULL || done == NULL) {
        return ccl_internal_error;
    }
    /* A host polls test() in a loop: the mirror answers "not done", and "done" with the sizes, by itself. */
    int mirrored = xdl_test_mirrored(api, as_id(request), sizes, &quiet_since);
    if (mirrored >= 0) {
        *done = mirrored;
        if (mirrored) {
            quiet_since = 0;
        }
        return ccl_success;
    }
    xdl_attach_thread();
    int64_t r = api->test(as_id(request), as_id(sizes));
    *done = r > 0 ? 1 : 0;
    if (r != 0) {
        quiet_since = 0; /* done, or failed: either is news */
    } else {
        xdl_quiet_nap(api, as_id(request), &quiet_since);
    }
    return xdl_status(r);
}

static ccl_result_t do_close_send(void *comm) {
    API_OR_FAIL(api);
    return xdl_status(api->close_send(as_id(comm)));
}

static ccl_result_t do_close_recv(void *comm) {
    API_OR_FAIL(api);
    return xdl_status(api->close_recv(as_id(comm)));
}

static ccl_result_t do_close_listen(void *comm) {
    API_OR_FAIL(api);
    return xdl_status(api->close_listen(as_id(comm)));
}

static ccl_result_t do_finalize(void *ctx) {
    API_OR_FAIL(api);
    return xdl_status(api->finalize(as_id(ctx)));
}

/* ---- per-version adapters ---- */

static ccl_result_t init_v6(ccl_logger_t l) { return init_legacy(6, l, -1); }
static ccl_result_t init_v7(ccl_logger_t l) { return init_legacy(7, l, -1); }
static ccl_result_t init_v8(ccl_logger_t l) { return init_legacy(8, l, -1); }
static ccl_result_t init_v9(ccl_logger_t l) { return init_legacy(9, l, -1); }
static ccl_result_t init_v10(ccl_logger_t l, ccl_profiler_cb_t p) {
    (void)p;
    return init_legacy(10, l, -1);
}
static ccl_result_t init_v11(void **ctx, uint64_t id, ccl_comm_config_t *cfg, ccl_logger_t l, ccl_profiler_cb_t p) {
    (void)p;
    return init_per_comm(11, ctx, id, cfg, l);
}
static ccl_result_t init_v12(void **ctx, uint64_t id, ccl_comm_config_t *cfg, ccl_logger_t l, ccl_profiler_cb_t p) {
    (void)p;
    return init_per_comm(12, ctx, id, cfg, l);
}

static ccl_result_t props_v6(int dev, ccl_props_v6_t *p) { return properties(6, dev, p); }
static ccl_result_t props_v7(int dev, ccl_props_v7_t *p) { return properties(7, dev, p); }
static ccl_result_t props_v8(int dev, ccl_props_v8_t *p) { return properties(8, dev, p); }
static ccl_result_t props_v9(int dev, ccl_props_v9_t *p) { return properties(9, dev, p); }
static ccl_result_t props_v10(int dev, ccl_props_v9_t *p) { return properties(10, dev, p); }
static ccl_result_t props_v11(int dev, ccl_props_v11_t *p) { return properties(11, dev, p); }
static ccl_result_t props_v12(int dev, ccl_props_v12_t *p) { return properties(12, dev, p); }

static ccl_result_t listen_legacy(int dev, void *handle, void **lc) { return do_listen(legacy_ctx, dev, handle, lc); }
static ccl_result_t listen_ctx(void *ctx, int dev, void *handle, void **lc) {
    return do_listen(as_id(ctx), dev, handle, lc);
}

static ccl_result_t connect_v6(int dev, void *handle, void **sc) { return do_connect(legacy_ctx, dev, -1, handle, sc); }
static ccl_result_t connect_v7(int dev, void *handle, void **sc, ccl_net_device_handle_t **dc) {
    (void)dc;
    return do_connect(legacy_ctx, dev, -1, handle, sc);
}
static ccl_result_t connect_v10(int dev, ccl_comm_config_t *cfg, void *handle, void **sc,
                                ccl_net_device_handle_t **dc) {
    (void)dc;
    return do_connect(legacy_ctx, dev, cfg != NULL ? cfg->traffic_class : -1, handle, sc);
}
static ccl_result_t connect_v11(void *ctx, int dev, void *handle, void **sc, ccl_net_device_handle_t **dc) {
    (void)dc;
    return do_connect(as_id(ctx), dev, -1, handle, sc);
}

static ccl_result_t accept_v6(void *lc, void **rc) { return do_accept(lc, rc); }
static ccl_result_t accept_v7(void *lc, void **rc, ccl_net_device_handle_t **dc) {
    (void)dc;
    return do_accept(lc, rc);
}

static ccl_result_t reg_mr_int(void *comm, void *data, int size, int type, void **mh) {
    if (size < 0) {
        if (mh != NULL) {
            *mh = NULL;
        }
        return ccl_internal_error;
    }
    return do_reg_mr(comm, data, (size_t)size, type, mh);
}

static ccl_result_t isend_int(void *sc, void *data, int size, int tag, void *mh, void **req) {
    if (size < 0) {
        if (req != NULL) {
            *req = NULL;
        }
        return ccl_internal_error;
    }
    return do_isend(sc, data, (size_t)size, tag, mh, req);
}
static ccl_result_t isend_v10(void *sc, void *data, size_t size, int tag, void *mh, void *ph, void **req) {
    (void)ph;
    return do_isend(sc, data, size, tag, mh, req);
}

static ccl_result_t irecv_v9(void *rc, int n, void **data, size_t *sizes, int *tags, void **mhs, void **req) {
    _Static_assert(sizeof(size_t) == sizeof(uint64_t), "LP64 only");
    return do_irecv(rc, n, data, (uint64_t *)sizes, tags, mhs, req);
}
static ccl_result_t irecv_v10(void *rc, int n, void **data, size_t *sizes, int *tags, void **mhs, void **phs,
                              void **req) {
    (void)phs;
    return do_irecv(rc, n, data, (uint64_t *)sizes, tags, mhs, req);
}

EXPORT ccl_net_v6_t ncclNetPlugin_v6 = {
    .name = XDL_NAME, .init = init_v6, .devices = devices, .get_properties = props_v6, .listen = listen_legacy,
    .connect = connect_v6, .accept = accept_v6, .reg_mr = reg_mr_int, .reg_mr_dma_buf = NULL,
    .dereg_mr = do_dereg_mr, .isend = isend_int, .irecv = do_irecv_int, .iflush = do_iflush, .test = do_test,
    .close_send = do_close_send, .close_recv = do_close_recv, .close_listen = do_close_listen,
};

EXPORT ccl_net_v7_t ncclNetPlugin_v7 = {
    .name = XDL_NAME, .init = init_v7, .devices = devices, .get_properties = props_v7, .listen = listen_legacy,
    .connect = connect_v7, .accept = accept_v7, .reg_mr = reg_mr_int, .reg_mr_dma_buf = NULL,
    .dereg_mr = do_dereg_mr, .isend = isend_int, .irecv = do_irecv_int, .iflush = do_iflush, .test = do_test,
    .close_send = do_close_send, .close_recv = do_close_recv, .close_listen = do_close_listen,
    .get_device_mr = NULL, .irecv_consumed = NULL,
};

EXPORT ccl_net_v8_t ncclNetPlugin_v8 = {
    .name = XDL_NAME, .init = init_v8, .devices = devices, .get_properties = props_v8, .listen = listen_legacy,
    .connect = connect_v7, .accept = accept_v7, .reg_mr = do_reg_mr, .reg_mr_dma_buf = NULL,
    .dereg_mr = do_dereg_mr, .isend = isend_int, .irecv = do_irecv_int, .iflush = do_iflush, .test = do_test,
    .close_send = do_close_send, .close_recv = do_close_recv, .close_listen = do_close_listen,
    .get_device_mr = NULL, .irecv_consumed = NULL,
};

EXPORT ccl_net_v9_t ncclNetPlugin_v9 = {
    .name = XDL_NAME, .init = init_v9, .devices = devices, .get_properties = props_v9, .listen = listen_legacy,
    .connect = connect_v7, .accept = accept_v7, .reg_mr = do_reg_mr, .reg_mr_dma_buf = NULL,
    .dereg_mr = do_dereg_mr, .isend = do_isend, .irecv = irecv_v9, .iflush = do_iflush, .test = do_test,
    .close_send = do_close_send, .close_recv = do_close_recv, .close_listen = do_close_listen,
    .get_device_mr = NULL, .irecv_consumed = NULL, .make_vdevice = NULL,
};

EXPORT ccl_net_v10_t ncclNetPlugin_v10 = {
    .name = XDL_NAME, .init = init_v10, .devices = devices, .get_properties = props_v10, .listen = listen_legacy,
    .connect = connect_v10, .accept = accept_v7, .reg_mr = do_reg_mr, .reg_mr_dma_buf = NULL,
    .dereg_mr = do_dereg_mr, .isend = isend_v10, .irecv = irecv_v10, .iflush = do_iflush, .test = do_test,
    .close_send = do_close_send, .close_recv = do_close_recv, .close_listen = do_close_listen,
    .get_device_mr = NULL, .irecv_consumed = NULL, .make_vdevice = NULL,
};

EXPORT ccl_net_v11_t ncclNetPlugin_v11 = {
    .name = XDL_NAME, .init = init_v11, .devices = devices, .get_properties = props_v11, .listen = listen_ctx,
    .connect = connect_v11, .accept = accept_v7, .reg_mr = do_reg_mr, .reg_mr_dma_buf = NULL,
    .dereg_mr = do_dereg_mr, .isend = isend_v10, .irecv = irecv_v10, .iflush = do_iflush, .test = do_test,
    .close_send = do_close_send, .close_recv = do_close_recv, .close_listen = do_close_listen,
    .get_device_mr = NULL, .irecv_consumed = NULL, .make_vdevice = NULL, .finalize = do_finalize,
    .set_net_attr = NULL,
};

EXPORT ccl_net_v12_t ncclNetPlugin_v12 = {
    .name = XDL_NAME, .init = init_v12, .devices = devices, .get_properties = props_v12, .listen = listen_ctx,
    .connect = connect_v11, .accept = accept_v7, .reg_mr = do_reg_mr, .reg_mr_dma_buf = NULL,
    .dereg_mr = do_dereg_mr, .isend = isend_v10, .irecv = irecv_v10, .iflush = do_iflush, .test = do_test,
    .close_send = do_close_send, .close_recv = do_close_recv, .close_listen = do_close_listen,
    .get_device_mr = NULL, .irecv_consumed = NULL, .make_vdevice = NULL, .finalize = do_finalize,
    .set_net_attr = NULL,
};
