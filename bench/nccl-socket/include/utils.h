/*
 * Stand-in for NCCL's utilities header: the interface-list matching the socket code calls (defined in
 * stand-ins.cc) and a reference-count decrement; the rest of NCCL's header needs CUDA.
 */
#pragma once
#include "core.h"
#include <stdint.h>
#include <time.h>
#include <algorithm>
#include <atomic>
#include <mutex>
#include <condition_variable>

/* One entry of NCCL_SOCKET_IFNAME's list, laid out as NCCL's socket code reads it. */
struct netIf {
  char prefix[64];
  int port;
  int16_t rail;
  int16_t plane;
};
int parseStringList(const char *string, struct netIf *ifList, int maxList);
bool matchIfList(const char *string, int port, struct netIf *ifList, int listSize, bool matchExact, int *ifId = NULL);

template <typename Int>
inline Int ncclAtomicRefCountDecrement(Int *refs) {
  return __atomic_sub_fetch(refs, static_cast<Int>(1), __ATOMIC_ACQ_REL);
}
