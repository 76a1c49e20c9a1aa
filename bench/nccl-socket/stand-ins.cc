/*
 * The few NCCL internals that NCCL's socket transport links against and that live in parts of NCCL which need CUDA:
 * environment parameters, the debug log, the interface-list parser and thread naming. Written for this comparison
 * build only; they follow what NCCL documents for each (NCCL_<NAME> variables, WARN to standard error, NCCL_DEBUG).
 */
#include "utils.h"
#include "param.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <thread>

const char *ncclGetEnv(const char *name) { return getenv(name); }

/* A parameter from its NCCL_<NAME> variable once, else its default; a value that is not a whole number is refused. */
int64_t ncclLoadParam(char const *env, int64_t deftVal, int64_t uninitialized, int64_t *cache, int8_t *noCache) {
  (void)noCache;
  int64_t value = deftVal;
  const char *text = getenv(env);
  if (text != NULL && *text != '\0') {
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 0);
    if (errno == 0 && end != NULL && *end == '\0' && v != uninitialized) {
      value = v;
    } else {
      fprintf(stderr, "NCCL WARN %s=%s is not a whole number; using %lld\n", env, text, (long long)deftVal);
    }
  }
  __atomic_store_n(cache, value, __ATOMIC_RELAXED);
  return value;
}

/* The debug log: warnings always, info with NCCL_DEBUG=INFO, to standard error. */
int ncclDebugLevel = -1;
uint64_t ncclDebugMask = ~0ull;
thread_local int ncclDebugNoWarn = 0;

static int debugLevel() {
  if (__atomic_load_n(&ncclDebugLevel, __ATOMIC_RELAXED) < 0) {
    const char *d = getenv("NCCL_DEBUG");
    int level = NCCL_LOG_WARN;
    if (d != NULL && strcasecmp(d, "INFO") == 0) level = NCCL_LOG_INFO;
    if (d != NULL && strcasecmp(d, "TRACE") == 0) level = NCCL_LOG_TRACE;
    __atomic_store_n(&ncclDebugLevel, level, __ATOMIC_RELAXED);
  }
  return ncclDebugLevel;
}

void ncclDebugLogInternal(ncclDebugLogLevel level, unsigned long flags, const char *file, const char *func, int line,
                          const char *fmt, ...) {
  (void)flags;
  (void)func;
  if ((int)level > debugLevel() || (level == NCCL_LOG_WARN && ncclDebugNoWarn)) return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "NCCL %s %s:%d %s\n", level == NCCL_LOG_WARN ? "WARN" : "INFO", file ? file : "-", line, msg);
}

void ncclSetThreadName(std::thread &thread, const char *fmt, ...) {
  (void)thread;
  (void)fmt;
}

NCCL_PARAM(SetCpuStackSize, "SET_CPU_STACK_SIZE", 1);

/* NCCL_SOCKET_IFNAME's list (the caller has taken off a leading ^ or =): names or prefixes, each with an optional
 * :port. */
int parseStringList(const char *string, struct netIf *ifList, int maxList) {
  int n = 0;
  const char *p = string;
  while (p != NULL && *p != '\0' && n < maxList) {
    const char *comma = strchr(p, ',');
    size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
    const char *colon = (const char *)memchr(p, ':', len);
    size_t nameLen = colon != NULL ? (size_t)(colon - p) : len;
    if (nameLen >= sizeof ifList[n].prefix) nameLen = sizeof ifList[n].prefix - 1;
    memcpy(ifList[n].prefix, p, nameLen);
    ifList[n].prefix[nameLen] = '\0';
    ifList[n].port = colon != NULL ? atoi(colon + 1) : -1;
    ifList[n].rail = -1;
    ifList[n].plane = -1;
    if (nameLen > 0) n++;
    p = comma != NULL ? comma + 1 : NULL;
  }
  return n;
}

bool matchIfList(const char *string, int port, struct netIf *ifList, int listSize, bool matchExact, int *ifId) {
  if (listSize == 0) return true;
  for (int i = 0; i < listSize; i++) {
    bool name = matchExact ? strcmp(string, ifList[i].prefix) == 0
                           : strncmp(string, ifList[i].prefix, strlen(ifList[i].prefix)) == 0;
    if (name && (ifList[i].port == -1 || port == -1 || ifList[i].port == port)) {
      if (ifId != NULL) *ifId = i;
      return true;
    }
  }
  return false;
}
