/*
 * The collective-library network-plugin ABI, versions 6 to 12, written from the facts in the project's
 * ccl-net-abi specification. Every layout below is pinned with static assertions on its offsets and size
 * (LP64), so a mistake fails the build instead of a host's topology search.
 *
 * Over 400 lines on purpose: seven versions of one ABI, each a full table, read best side by side in one header.
 */
#ifndef XDLINK_CCL_NET_ABI_H
#define XDLINK_CCL_NET_ABI_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    ccl_success = 0,
    ccl_unhandled_cuda_error = 1,
    ccl_system_error = 2,
    ccl_internal_error = 3,
    ccl_invalid_argument = 4,
    ccl_invalid_usage = 5,
    ccl_remote_error = 6,
    ccl_in_progress = 7
} ccl_result_t;

typedef enum {
    CCL_LOG_NONE = 0,
    CCL_LOG_VERSION = 1,
    CCL_LOG_WARN = 2,
    CCL_LOG_INFO = 3,
    CCL_LOG_ABORT = 4,
    CCL_LOG_TRACE = 5
} ccl_log_level_t;

#define CCL_SUBSYS_INIT 0x1UL
#define CCL_SUBSYS_NET 0x10UL
#define CCL_SUBSYS_ENV 0x80UL

/* The host's logger is a C variadic function: it can only be called correctly from C (or with a variadic
 * downcall), never through a fixed-arity pointer. */
typedef void (*ccl_logger_t)(ccl_log_level_t level, unsigned long flags, const char *file, int line,
                             const char *fmt, ...);
typedef ccl_result_t (*ccl_profiler_cb_t)(void **event_handle, int type, void *parent_handle, int64_t plugin_id,
                                          void *ext_data);

#define CCL_NET_HANDLE_MAXSIZE 128
#define CCL_PTR_HOST 0x1
#define CCL_PTR_CUDA 0x2
#define CCL_PTR_DMABUF 0x4
#define CCL_NET_MAX_REQUESTS 32
#define CCL_NET_DEVICE_HOST 0

typedef struct {
    int net_device_type;
    int net_device_version;
    void *handle;
    size_t size;
    int needs_proxy_progress;
} ccl_net_device_handle_t; /* v7 .. v12 */

typedef struct {
    int ndevs;
    int devs[4];
} ccl_vprops_v9_t; /* v9 .. v11 */

typedef struct {
    int ndevs;
    int devs[8];
} ccl_vprops_v12_t;

typedef struct {
    int traffic_class;
} ccl_comm_config_t; /* v10 .. v12 */

typedef struct {
    int32_t max_concurrent_peers, min_concurrent_peers, max_flows_per_peer, min_flows_per_peer;
} ccl_comm_attr_t;

typedef struct {
    ccl_comm_attr_t send_comm_attr;
    ccl_comm_attr_t recv_comm_attr;
    uint32_t op, algo, proto;
} ccl_net_attr_t; /* v11, v12 */

/* ---- properties, one struct per layout ---- */

typedef struct {
    char *name;
    char *pci_path;
    uint64_t guid;
    int ptr_support;
    int speed;
    int port;
    float latency;
    int max_comms;
    int max_recvs;
} ccl_props_v6_t;

typedef struct {
    char *name;
    char *pci_path;
    uint64_t guid;
    int ptr_support;
    int speed;
    int port;
    float latency;
    int max_comms;
    int max_recvs;
    int net_device_type;
    int net_device_version;
} ccl_props_v7_t;

typedef struct {
    char *name;
    char *pci_path;
    uint64_t guid;
    int ptr_support;
    int reg_is_global;
    int speed;
    int port;
    float latency;
    int max_comms;
    int max_recvs;
    int net_device_type;
    int net_device_version;
} ccl_props_v8_t;

typedef struct {
    char *name;
    char *pci_path;
    uint64_t guid;
    int ptr_support;
    int reg_is_global;
    int force_flush;
    int speed;
    int port;
    float latency;
    int max_comms;
    int max_recvs;
    int net_device_type;
    int net_device_version;
    ccl_vprops_v9_t vprops;
    size_t max_p2p_bytes;
    size_t max_coll_bytes;
} ccl_props_v9_t; /* also v10 */

typedef struct {
    char *name;
    char *pci_path;
    uint64_t guid;
    int ptr_support;
    int reg_is_global;
    int force_flush;
    int speed;
    int port;
    float latency;
    int max_comms;
    int max_recvs;
    int net_device_type;
    int net_device_version;
    ccl_vprops_v9_t vprops;
    size_t max_p2p_bytes;
    size_t max_coll_bytes;
    int max_multi_request_size;
} ccl_props_v11_t;

typedef struct {
    char *name;
    char *pci_path;
    uint64_t guid;
    int ptr_support;
    int reg_is_global;
    int force_flush;
    int speed;
    int port;
    float latency;
    int max_comms;
    int max_recvs;
    int net_device_type;
    int net_device_version;
    ccl_vprops_v12_t vprops;
    size_t max_p2p_bytes;
    size_t max_coll_bytes;
    int max_multi_request_size;
    int16_t rail_id;
    int16_t plane_id;
} ccl_props_v12_t;

#define CCL_ASSERT_AT(type, field, offset) \
    _Static_assert(offsetof(type, field) == (offset), #type "." #field " must be at " #offset)
#define CCL_ASSERT_SIZE(type, size) _Static_assert(sizeof(type) == (size), #type " must be " #size " bytes")

CCL_ASSERT_SIZE(ccl_net_device_handle_t, 32);
CCL_ASSERT_SIZE(ccl_vprops_v9_t, 20);
CCL_ASSERT_SIZE(ccl_vprops_v12_t, 36);
CCL_ASSERT_SIZE(ccl_net_attr_t, 44);

CCL_ASSERT_AT(ccl_props_v6_t, speed, 28);
CCL_ASSERT_AT(ccl_props_v6_t, latency, 36);
CCL_ASSERT_AT(ccl_props_v6_t, max_recvs, 44);
CCL_ASSERT_SIZE(ccl_props_v6_t, 48);

CCL_ASSERT_AT(ccl_props_v7_t, net_device_type, 48);
CCL_ASSERT_AT(ccl_props_v7_t, net_device_version, 52);
CCL_ASSERT_SIZE(ccl_props_v7_t, 56);

CCL_ASSERT_AT(ccl_props_v8_t, reg_is_global, 28);
CCL_ASSERT_AT(ccl_props_v8_t, speed, 32);
CCL_ASSERT_AT(ccl_props_v8_t, latency, 40);
CCL_ASSERT_AT(ccl_props_v8_t, net_device_version, 56);
CCL_ASSERT_SIZE(ccl_props_v8_t, 64);

CCL_ASSERT_AT(ccl_props_v9_t, force_flush, 32);
CCL_ASSERT_AT(ccl_props_v9_t, speed, 36);
CCL_ASSERT_AT(ccl_props_v9_t, port, 40);
CCL_ASSERT_AT(ccl_props_v9_t, latency, 44);
CCL_ASSERT_AT(ccl_props_v9_t, max_comms, 48);
CCL_ASSERT_AT(ccl_props_v9_t, max_recvs, 52);
CCL_ASSERT_AT(ccl_props_v9_t, net_device_type, 56);
CCL_ASSERT_AT(ccl_props_v9_t, vprops, 64);
CCL_ASSERT_AT(ccl_props_v9_t, max_p2p_bytes, 88);
CCL_ASSERT_AT(ccl_props_v9_t, max_coll_bytes, 96);
CCL_ASSERT_SIZE(ccl_props_v9_t, 104);

CCL_ASSERT_AT(ccl_props_v11_t, max_p2p_bytes, 88);
CCL_ASSERT_AT(ccl_props_v11_t, max_multi_request_size, 104);
CCL_ASSERT_SIZE(ccl_props_v11_t, 112);

CCL_ASSERT_AT(ccl_props_v12_t, vprops, 64);
CCL_ASSERT_AT(ccl_props_v12_t, max_p2p_bytes, 104);
CCL_ASSERT_AT(ccl_props_v12_t, max_coll_bytes, 112);
CCL_ASSERT_AT(ccl_props_v12_t, max_multi_request_size, 120);
CCL_ASSERT_AT(ccl_props_v12_t, rail_id, 124);
CCL_ASSERT_AT(ccl_props_v12_t, plane_id, 126);
CCL_ASSERT_SIZE(ccl_props_v12_t, 128);

/* ---- function tables, one per version; slot k sits at byte 8k ---- */

typedef struct {
    const char *name;
    ccl_result_t (*init)(ccl_logger_t logger);
    ccl_result_t (*devices)(int *ndev);
    ccl_result_t (*get_properties)(int dev, ccl_props_v6_t *props);
    ccl_result_t (*listen)(int dev, void *handle, void **listen_comm);
    ccl_result_t (*connect)(int dev, void *handle, void **send_comm);
    ccl_result_t (*accept)(void *listen_comm, void **recv_comm);
    ccl_result_t (*reg_mr)(void *comm, void *data, int size, int type, void **mhandle);
    ccl_result_t (*reg_mr_dma_buf)(void *comm, void *data, size_t size, int type, uint64_t offset, int fd,
                                   void **mhandle);
    ccl_result_t (*dereg_mr)(void *comm, void *mhandle);
    ccl_result_t (*isend)(void *send_comm, void *data, int size, int tag, void *mhandle, void **request);
    ccl_result_t (*irecv)(void *recv_comm, int n, void **data, int *sizes, int *tags, void **mhandles,
                          void **request);
    ccl_result_t (*iflush)(void *recv_comm, int n, void **data, int *sizes, void **mhandles, void **request);
    ccl_result_t (*test)(void *request, int *done, int *sizes);
    ccl_result_t (*close_send)(void *send_comm);
    ccl_result_t (*close_recv)(void *recv_comm);
    ccl_result_t (*close_listen)(void *listen_comm);
} ccl_net_v6_t;

typedef struct {
    const char *name;
    ccl_result_t (*init)(ccl_logger_t logger);
    ccl_result_t (*devices)(int *ndev);
    ccl_result_t (*get_properties)(int dev, ccl_props_v7_t *props);
    ccl_result_t (*listen)(int dev, void *handle, void **listen_comm);
    ccl_result_t (*connect)(int dev, void *handle, void **send_comm, ccl_net_device_handle_t **send_dev_comm);
    ccl_result_t (*accept)(void *listen_comm, void **recv_comm, ccl_net_device_handle_t **recv_dev_comm);
    ccl_result_t (*reg_mr)(void *comm, void *data, int size, int type, void **mhandle);
    ccl_result_t (*reg_mr_dma_buf)(void *comm, void *data, size_t size, int type, uint64_t offset, int fd,
                                   void **mhandle);
    ccl_result_t (*dereg_mr)(void *comm, void *mhandle);
    ccl_result_t (*isend)(void *send_comm, void *data, int size, int tag, void *mhandle, void **request);
    ccl_result_t (*irecv)(void *recv_comm, int n, void **data, int *sizes, int *tags, void **mhandles,
                          void **request);
    ccl_result_t (*iflush)(void *recv_comm, int n, void **data, int *sizes, void **mhandles, void **request);
    ccl_result_t (*test)(void *request, int *done, int *sizes);
    ccl_result_t (*close_send)(void *send_comm);
    ccl_result_t (*close_recv)(void *recv_comm);
    ccl_result_t (*close_listen)(void *listen_comm);
    ccl_result_t (*get_device_mr)(void *comm, void *mhandle, void **dptr_mhandle);
    ccl_result_t (*irecv_consumed)(void *recv_comm, int n, void *request);
} ccl_net_v7_t;

typedef struct {
    const char *name;
    ccl_result_t (*init)(ccl_logger_t logger);
    ccl_result_t (*devices)(int *ndev);
    ccl_result_t (*get_properties)(int dev, ccl_props_v8_t *props);
    ccl_result_t (*listen)(int dev, void *handle, void **listen_comm);
    ccl_result_t (*connect)(int dev, void *handle, void **send_comm, ccl_net_device_handle_t **send_dev_comm);
    ccl_result_t (*accept)(void *listen_comm, void **recv_comm, ccl_net_device_handle_t **recv_dev_comm);
    ccl_result_t (*reg_mr)(void *comm, void *data, size_t size, int type, void **mhandle);
    ccl_result_t (*reg_mr_dma_buf)(void *comm, void *data, size_t size, int type, uint64_t offset, int fd,
                                   void **mhandle);
    ccl_result_t (*dereg_mr)(void *comm, void *mhandle);
    ccl_result_t (*isend)(void *send_comm, void *data, int size, int tag, void *mhandle, void **request);
    ccl_result_t (*irecv)(void *recv_comm, int n, void **data, int *sizes, int *tags, void **mhandles,
                          void **request);
    ccl_result_t (*iflush)(void *recv_comm, int n, void **data, int *sizes, void **mhandles, void **request);
    ccl_result_t (*test)(void *request, int *done, int *sizes);
    ccl_result_t (*close_send)(void *send_comm);
    ccl_result_t (*close_recv)(void *recv_comm);
    ccl_result_t (*close_listen)(void *listen_comm);
    ccl_result_t (*get_device_mr)(void *comm, void *mhandle, void **dptr_mhandle);
    ccl_result_t (*irecv_consumed)(void *recv_comm, int n, void *request);
} ccl_net_v8_t;

typedef struct {
    const char *name;
    ccl_result_t (*init)(ccl_logger_t logger);
    ccl_result_t (*devices)(int *ndev);
    ccl_result_t (*get_properties)(int dev, ccl_props_v9_t *props);
    ccl_result_t (*listen)(int dev, void *handle, void **listen_comm);
    ccl_result_t (*connect)(int dev, void *handle, void **send_comm, ccl_net_device_handle_t **send_dev_comm);
    ccl_result_t (*accept)(void *listen_comm, void **recv_comm, ccl_net_device_handle_t **recv_dev_comm);
    ccl_result_t (*reg_mr)(void *comm, void *data, size_t size, int type, void **mhandle);
    ccl_result_t (*reg_mr_dma_buf)(void *comm, void *data, size_t size, int type, uint64_t offset, int fd,
                                   void **mhandle);
    ccl_result_t (*dereg_mr)(void *comm, void *mhandle);
    ccl_result_t (*isend)(void *send_comm, void *data, size_t size, int tag, void *mhandle, void **request);
    ccl_result_t (*irecv)(void *recv_comm, int n, void **data, size_t *sizes, int *tags, void **mhandles,
                          void **request);
    ccl_result_t (*iflush)(void *recv_comm, int n, void **data, int *sizes, void **mhandles, void **request);
    ccl_result_t (*test)(void *request, int *done, int *sizes);
    ccl_result_t (*close_send)(void *send_comm);
    ccl_result_t (*close_recv)(void *recv_comm);
    ccl_result_t (*close_listen)(void *listen_comm);
    ccl_result_t (*get_device_mr)(void *comm, void *mhandle, void **dptr_mhandle);
    ccl_result_t (*irecv_consumed)(void *recv_comm, int n, void *request);
    ccl_result_t (*make_vdevice)(int *d, ccl_vprops_v9_t *props);
} ccl_net_v9_t;

typedef struct {
    const char *name;
    ccl_result_t (*init)(ccl_logger_t logger, ccl_profiler_cb_t profiler);
    ccl_result_t (*devices)(int *ndev);
    ccl_result_t (*get_properties)(int dev, ccl_props_v9_t *props);
    ccl_result_t (*listen)(int dev, void *handle, void **listen_comm);
    ccl_result_t (*connect)(int dev, ccl_comm_config_t *config, void *handle, void **send_comm,
                            ccl_net_device_handle_t **send_dev_comm);
    ccl_result_t (*accept)(void *listen_comm, void **recv_comm, ccl_net_device_handle_t **recv_dev_comm);
    ccl_result_t (*reg_mr)(void *comm, void *data, size_t size, int type, void **mhandle);
    ccl_result_t (*reg_mr_dma_buf)(void *comm, void *data, size_t size, int type, uint64_t offset, int fd,
                                   void **mhandle);
    ccl_result_t (*dereg_mr)(void *comm, void *mhandle);
    ccl_result_t (*isend)(void *send_comm, void *data, size_t size, int tag, void *mhandle, void *phandle,
                          void **request);
    ccl_result_t (*irecv)(void *recv_comm, int n, void **data, size_t *sizes, int *tags, void **mhandles,
                          void **phandles, void **request);
    ccl_result_t (*iflush)(void *recv_comm, int n, void **data, int *sizes, void **mhandles, void **request);
    ccl_result_t (*test)(void *request, int *done, int *sizes);
    ccl_result_t (*close_send)(void *send_comm);
    ccl_result_t (*close_recv)(void *recv_comm);
    ccl_result_t (*close_listen)(void *listen_comm);
    ccl_result_t (*get_device_mr)(void *comm, void *mhandle, void **dptr_mhandle);
    ccl_result_t (*irecv_consumed)(void *recv_comm, int n, void *request);
    ccl_result_t (*make_vdevice)(int *d, ccl_vprops_v9_t *props);
} ccl_net_v10_t;

/* v11 and v12 share one slot layout; only the properties and vProps types differ. */
#define CCL_NET_V11_LIKE(props_t, vprops_t)                                                                     \
    struct {                                                                                                     \
        const char *name;                                                                                        \
        ccl_result_t (*init)(void **ctx, uint64_t comm_id, ccl_comm_config_t *config, ccl_logger_t logger,      \
                             ccl_profiler_cb_t profiler);                                                        \
        ccl_result_t (*devices)(int *ndev);                                                                      \
        ccl_result_t (*get_properties)(int dev, props_t *props);                                                 \
        ccl_result_t (*listen)(void *ctx, int dev, void *handle, void **listen_comm);                            \
        ccl_result_t (*connect)(void *ctx, int dev, void *handle, void **send_comm,                               \
                                ccl_net_device_handle_t **send_dev_comm);                                        \
        ccl_result_t (*accept)(void *listen_comm, void **recv_comm, ccl_net_device_handle_t **recv_dev_comm);   \
        ccl_result_t (*reg_mr)(void *comm, void *data, size_t size, int type, void **mhandle);                  \
        ccl_result_t (*reg_mr_dma_buf)(void *comm, void *data, size_t size, int type, uint64_t offset, int fd,  \
                                       void **mhandle);                                                          \
        ccl_result_t (*dereg_mr)(void *comm, void *mhandle);                                                     \
        ccl_result_t (*isend)(void *send_comm, void *data, size_t size, int tag, void *mhandle, void *phandle,  \
                              void **request);                                                                   \
        ccl_result_t (*irecv)(void *recv_comm, int n, void **data, size_t *sizes, int *tags, void **mhandles,   \
                              void **phandles, void **request);                                                  \
        ccl_result_t (*iflush)(void *recv_comm, int n, void **data, int *sizes, void **mhandles,                \
                               void **request);                                                                  \
        ccl_result_t (*test)(void *request, int *done, int *sizes);                                              \
        ccl_result_t (*close_send)(void *send_comm);                                                             \
        ccl_result_t (*close_recv)(void *recv_comm);                                                             \
        ccl_result_t (*close_listen)(void *listen_comm);                                                         \
        ccl_result_t (*get_device_mr)(void *comm, void *mhandle, void **dptr_mhandle);                          \
        ccl_result_t (*irecv_consumed)(void *recv_comm, int n, void *request);                                   \
        ccl_result_t (*make_vdevice)(int *d, vprops_t *props);                                                   \
        ccl_result_t (*finalize)(void *ctx);                                                                     \
        ccl_result_t (*set_net_attr)(void *ctx, ccl_net_attr_t *attr);                                           \
    }

typedef CCL_NET_V11_LIKE(ccl_props_v11_t, ccl_vprops_v9_t) ccl_net_v11_t;
typedef CCL_NET_V11_LIKE(ccl_props_v12_t, ccl_vprops_v12_t) ccl_net_v12_t;

CCL_ASSERT_SIZE(ccl_net_v6_t, 136);
CCL_ASSERT_SIZE(ccl_net_v7_t, 152);
CCL_ASSERT_SIZE(ccl_net_v8_t, 152);
CCL_ASSERT_SIZE(ccl_net_v9_t, 160);
CCL_ASSERT_SIZE(ccl_net_v10_t, 160);
CCL_ASSERT_SIZE(ccl_net_v11_t, 176);
CCL_ASSERT_SIZE(ccl_net_v12_t, 176);
CCL_ASSERT_AT(ccl_net_v6_t, test, 8 * 13);
CCL_ASSERT_AT(ccl_net_v7_t, irecv_consumed, 8 * 18);
CCL_ASSERT_AT(ccl_net_v9_t, make_vdevice, 8 * 19);
CCL_ASSERT_AT(ccl_net_v11_t, finalize, 8 * 20);
CCL_ASSERT_AT(ccl_net_v12_t, set_net_attr, 8 * 21);

#endif
