/* NCCL's socket transport (its internal ncclNet_t, which build.sh checks is the v12 table) under the symbol an external
 * net plugin exports, so the same harness loads it as it loads xdlink's plugin. */
#include "net.h"

extern ncclNet_t ncclNetSocket;

extern "C" {
__attribute__((visibility("default"))) ncclNet_v12_t ncclNetPlugin_v12 = ncclNetSocket;
}
