/*
 * Stand-in for NCCL's core header: logging, checks, parameters and the OS layer from NCCL's own headers, and a plain
 * zeroing allocation in place of NCCL's allocator (which pulls in the CUDA memory manager).
 */
#pragma once
#include "nccl.h"
#include "debug.h"
#include "checks.h"
#include "param.h"
#include "os.h"
#include <stdlib.h>
#include <string.h>
#include <type_traits>

/* NCCL allocates untyped buffers (void *) too, counting bytes. */
template <typename T>
constexpr size_t xdlStandInSize() {
  if constexpr (std::is_void_v<T>) {
    return 1;
  } else {
    return sizeof(T);
  }
}

template <typename T>
static inline ncclResult_t xdlStandInCalloc(T **ptr, size_t n) {
  T *p = (T *)calloc(n > 0 ? n : 1, xdlStandInSize<T>());
  if (p == NULL) return ncclSystemError;
  *ptr = p;
  return ncclSuccess;
}

template <typename T>
static inline ncclResult_t xdlStandInRealloc(T **ptr, size_t oldN, size_t newN) {
  if (newN < oldN) return ncclInternalError;
  T *p = (T *)realloc((void *)*ptr, newN * xdlStandInSize<T>());
  if (p == NULL) return ncclSystemError;
  memset((char *)p + oldN * xdlStandInSize<T>(), 0, (newN - oldN) * xdlStandInSize<T>());
  *ptr = p;
  return ncclSuccess;
}

#define ncclCalloc(ptr, n) xdlStandInCalloc(ptr, n)
#define ncclRealloc(ptr, oldN, newN) xdlStandInRealloc(ptr, oldN, newN)
#ifndef DIVUP
#define DIVUP(x, y) (((x) + (y) - 1) / (y))
#endif
