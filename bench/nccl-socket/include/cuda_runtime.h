/*
 * Stand-in for the CUDA runtime header, enough for NCCL's socket transport to build on a host without CUDA. The
 * transport only asks which device is current (device 0 here); every call that would need a GPU fails with
 * cudaErrorNotSupported, so a path that needs one stops with an error instead of pretending.
 */
#ifndef XDLINK_NCCL_SOCKET_CUDA_RUNTIME_H
#define XDLINK_NCCL_SOCKET_CUDA_RUNTIME_H
#include <stddef.h>

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef int cudaError_t;
enum { cudaSuccess = 0, cudaErrorNotSupported = 801 };
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed };
enum { cudaHostRegisterDefault = 0, cudaHostRegisterPortable = 1, cudaHostRegisterMapped = 2 };

static inline cudaError_t cudaGetDevice(int *device) { *device = 0; return cudaSuccess; }
static inline cudaError_t cudaGetLastError(void) { return cudaSuccess; }
static inline const char *cudaGetErrorString(cudaError_t e) { return e == cudaSuccess ? "no error" : "no CUDA in this build"; }
static inline cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *) { return cudaErrorNotSupported; }
static inline cudaError_t cudaHostRegister(void *, size_t, unsigned) { return cudaErrorNotSupported; }
static inline cudaError_t cudaHostUnregister(void *) { return cudaErrorNotSupported; }
static inline cudaError_t cudaHostGetDevicePointer(void **, void *, unsigned) { return cudaErrorNotSupported; }
#endif
