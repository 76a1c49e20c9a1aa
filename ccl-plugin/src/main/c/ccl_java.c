/*
 * Getting Java into the process and its entry points into the shim.
 *
 * The shim uses the JVM already in the process when there is one (the host is a Java program), else starts one:
 * libjvm from XDLINK_JAVA_HOME, JAVA_HOME or the JDK the shim was built with (the first that is a JDK 25 or newer),
 * the class path from the jars beside this library (and the ahead-of-time cache beside them, when this JDK made it).
 * Either way it calls io.xdlink.ccl.abi.NativeBridge.install
 * once, handing Java the addresses of xdl_register and xdl_log; Java answers by registering its upcall stubs
 * through xdl_register. Neither function is exported: the library's dynamic symbols are exactly the seven tables.
 *
 * Any failure is logged through the host's logger and remembered, so init keeps returning an error and the host
 * falls back to its internal transports instead of retrying a JVM start that can only fail again.
 *
 * Over 400 lines on purpose: finding a JDK, building the class path, starting or joining the JVM and taking the
 * registration are one sequence run once under one lock, sharing the remembered failure; split, each part would
 * need that state exported across files.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <jni.h>
#include <link.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ccl_bridge.h"

#ifndef XDLINK_BUILD_JAVA_HOME
#define XDLINK_BUILD_JAVA_HOME ""
#endif

#define MIN_JAVA_FEATURE 25
#define BRIDGE_CLASS "io.xdlink.ccl.abi.NativeBridge"
#define MAX_EXTRA_OPTIONS 32

static xdl_java_api_t registered;
static _Atomic(const xdl_java_api_t *) api_ptr;
static _Atomic(ccl_logger_t) logger_ptr;

static pthread_mutex_t boot_lock = PTHREAD_MUTEX_INITIALIZER;
static JavaVM *_Atomic the_vm;
static pthread_key_t detach_key;
static pthread_once_t detach_once = PTHREAD_ONCE_INIT;
static __thread int thread_attached;
static int boot_failed;
static char boot_error[1024];

const xdl_java_api_t *xdl_api(void) {
    return atomic_load_explicit(&api_ptr, memory_order_acquire);
}

static void detach_at_exit(void *vm) {
    (*(JavaVM *)vm)->DetachCurrentThread((JavaVM *)vm);
}

static void make_detach_key(void) {
    pthread_key_create(&detach_key, detach_at_exit);
}

/*
 * Attaches the calling thread to the JVM once, as a daemon, and detaches it when the thread exits. An upcall from a
 * thread the JVM does not know costs several times more than one from an attached thread (measured with the
 * harness's ping-pong mode), and a host's proxy threads call in millions of times.
 */
void xdl_attach_thread(void) {
    JavaVM *vm = the_vm;
    if (thread_attached || vm == NULL) {
        return;
    }
    JNIEnv *env = NULL;
    jint st = (*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_21);
    if (st == JNI_EDETACHED) {
        if ((*vm)->AttachCurrentThreadAsDaemon(vm, (void **)&env, NULL) != JNI_OK) {
            return;
        }
        pthread_once(&detach_once, make_detach_key);
        pthread_setspecific(detach_key, vm);
    }
    thread_attached = 1;
}

void xdl_set_logger(ccl_logger_t logger) {
    if (logger != NULL) {
        atomic_store_explicit(&logger_ptr, logger, memory_order_release);
    }
}

void xdl_log(int32_t level, uint64_t flags, const char *file, int32_t line, const char *message) {
    ccl_logger_t logger = atomic_load_explicit(&logger_ptr, memory_order_acquire);
    if (logger != NULL) {
        logger((ccl_log_level_t)level, (unsigned long)flags, file, line, "%s", message);
    } else if (level == CCL_LOG_WARN || level == CCL_LOG_ABORT) {
        fprintf(stderr, "xdlink: %s\n", message);
    }
}

static void logf_c(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_c(int level, const char *fmt, ...) {
    char buf[1280];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    xdl_log(level, CCL_SUBSYS_INIT | CCL_SUBSYS_NET, "ccl_java.c", 0, buf);
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(boot_error, sizeof boot_error, fmt, ap);
    va_end(ap);
    boot_failed = 1;
}

/* Java calls this (by address) with its table; returns 0 when accepted. */
static int32_t xdl_register(const xdl_java_api_t *api, int64_t size, int32_t revision) {
    if (api == NULL || revision != XDL_API_REVISION || size != (int64_t)sizeof(xdl_java_api_t)) {
        logf_c(CCL_LOG_WARN, "NET/xdlink : Java entry table rejected: revision %d size %lld, shim expects %d and %zu",
               revision, (long long)size, XDL_API_REVISION, sizeof(xdl_java_api_t));
        return -1;
    }
    const void *const *slots = (const void *const *)api;
    for (size_t i = 0; i < sizeof(xdl_java_api_t) / sizeof(void *); i++) {
        if (slots[i] == NULL) {
            logf_c(CCL_LOG_WARN, "NET/xdlink : Java entry table rejected: slot %zu is NULL", i);
            return -1;
        }
    }
    registered = *api;
    atomic_store_explicit(&api_ptr, &registered, memory_order_release);
    return 0;
}

/* ---- where this library lives ---- */

static int plugin_path(char *out, size_t cap) {
    Dl_info info;
    if (dladdr((void *)&xdl_register, &info) == 0 || info.dli_fname == NULL) {
        return -1;
    }
    if (realpath(info.dli_fname, out) == NULL) {
        if (strlen(info.dli_fname) >= cap) {
            return -1;
        }
        strcpy(out, info.dli_fname);
    }
    return 0;
}

static int jar_filter(const struct dirent *e) {
    size_t n = strlen(e->d_name);
    return n > 4 && strcmp(e->d_name + n - 4, ".jar") == 0;
}

/* "-Djava.class.path=" followed by every jar in dir, sorted, joined with ':'. Caller frees. */
static char *class_path_option(const char *dir) {
    struct dirent **names = NULL;
    int n = scandir(dir, &names, jar_filter, alphasort);
    if (n <= 0) {
        free(names);
        return NULL;
    }
    size_t cap = strlen("-Djava.class.path=") + 1;
    for (int i = 0; i < n; i++) {
        cap += strlen(dir) + 1 + strlen(names[i]->d_name) + 1;
    }
    char *cp = malloc(cap);
    if (cp != NULL) {
        strcpy(cp, "-Djava.class.path=");
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                strcat(cp, ":");
            }
            strcat(cp, dir);
            strcat(cp, "/");
            strcat(cp, names[i]->d_name);
        }
    }
    for (int i = 0; i < n; i++) {
        free(names[i]);
    }
    free(names);
    return cp;
}

/* ---- the ahead-of-time cache beside the jars ---- */

#define AOT_CACHE_NAME "xdlink-plugin.aot"

/* JAVA_RUNTIME_VERSION from $home/release ("25.0.3+9-LTS") into out; "" when there is none. */
static void java_runtime_version(const char *home, char *out, size_t cap) {
    out[0] = '\0';
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/release", home);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return;
    }
    char line[256];
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "JAVA_RUNTIME_VERSION=\"", 22) == 0) {
            char *end = strchr(line + 22, '"');
            if (end != NULL) {
                *end = '\0';
                snprintf(out, cap, "%s", line + 22);
            }
            break;
        }
    }
    fclose(f);
}

/*
 * Whether a JVM option picks a collector (-XX:+UseG1GC, -XX:+UseSerialGC, ...): the shim then leaves its own choice
 * out, since a JVM given two refuses to start.
 */
static int picks_collector(const char *opt) {
    size_t len = strlen(opt);
    return strncmp(opt, "-XX:+Use", 8) == 0 && len > 10 && strcmp(opt + len - 2, "GC") == 0;
}

static int newer(const struct timespec *a, const struct timespec *b) {
    return a->tv_sec > b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec > b->tv_nsec);
}

/*
 * Writes "-XX:AOTCache=<dir>/xdlink-plugin.aot" into out and returns 1 when the plugin directory holds a cache that
 * the JDK at home made (the .jdk file beside it names that JDK's JAVA_RUNTIME_VERSION and real path, as
 * aot/train.sh writes it) and no jar beside it is newer than the cache. Otherwise returns 0 and
 * says why, for an INFO line: a cache from another JDK or older jars would at best be refused and at worst describe
 * classes that changed since.
 */
static int aot_cache_option(const char *dir, const char *home, char *out, size_t cap, char *why, size_t why_cap) {
    char cache[PATH_MAX];
    snprintf(cache, sizeof cache, "%s/%s", dir, AOT_CACHE_NAME);
    struct stat cst;
    if (stat(cache, &cst) != 0) {
        snprintf(why, why_cap, "no %s", cache);
        return 0;
    }
    char stamp_path[PATH_MAX + 8];
    snprintf(stamp_path, sizeof stamp_path, "%s.jdk", cache);
    char stamp[2 * PATH_MAX] = "";
    FILE *f = fopen(stamp_path, "r");
    if (f != NULL) {
        size_t got = fread(stamp, 1, sizeof stamp - 1, f);
        stamp[got] = '\0';
        fclose(f);
    }
    char version[128];
    java_runtime_version(home, version, sizeof version);
    char real_home[PATH_MAX];
    if (realpath(home, real_home) == NULL) {
        snprintf(real_home, sizeof real_home, "%s", home);
    }
    char expected[2 * PATH_MAX];
    snprintf(expected, sizeof expected, "%s\n%s\n", version, real_home);
    if (version[0] == '\0' || strcmp(stamp, expected) != 0) {
        snprintf(why, why_cap, "%s was not made by the JDK at %s", cache, real_home);
        return 0;
    }
    struct dirent **names = NULL;
    int n = scandir(dir, &names, jar_filter, alphasort);
    int stale = 0;
    for (int i = 0; i < n; i++) {
        char jar[PATH_MAX + 256];
        struct stat jst;
        snprintf(jar, sizeof jar, "%s/%s", dir, names[i]->d_name);
        if (!stale && stat(jar, &jst) == 0 && newer(&jst.st_mtim, &cst.st_mtim)) {
            snprintf(why, why_cap, "%s is older than %s", cache, jar);
            stale = 1;
        }
        free(names[i]);
    }
    free(names);
    if (stale) {
        return 0;
    }
    snprintf(out, cap, "-XX:AOTCache=%s", cache);
    return 1;
}

/* ---- finding a JDK ---- */

/* The feature release in $home/release (JAVA_VERSION="25.0.3"), or -1. */
static int java_feature(const char *home) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/release", home);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return -1;
    }
    char line[256];
    int feature = -1;
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "JAVA_VERSION=\"", 14) == 0) {
            const char *v = line + 14;
            if (strncmp(v, "1.", 2) == 0) {
                v += 2;
            }
            feature = atoi(v);
            break;
        }
    }
    fclose(f);
    return feature;
}

/* Opens libjvm of the first acceptable home; the chosen home goes to chosen. */
static void *open_libjvm(char *chosen, size_t cap, char *why, size_t why_cap) {
    const char *names[] = {"XDLINK_JAVA_HOME", "JAVA_HOME", "the build JDK"};
    const char *homes[] = {getenv("XDLINK_JAVA_HOME"), getenv("JAVA_HOME"), XDLINK_BUILD_JAVA_HOME};
    why[0] = '\0';
    for (int i = 0; i < 3; i++) {
        const char *home = homes[i];
        size_t used = strlen(why);
        if (home == NULL || home[0] == '\0') {
            continue;
        }
        char lib[PATH_MAX];
        snprintf(lib, sizeof lib, "%s/lib/server/libjvm.so", home);
        struct stat st;
        if (stat(lib, &st) != 0) {
            snprintf(why + used, why_cap - used, "%s%s=%s has no lib/server/libjvm.so", used ? "; " : "", names[i],
                     home);
            continue;
        }
        int feature = java_feature(home);
        if (feature < MIN_JAVA_FEATURE) {
            snprintf(why + used, why_cap - used, "%s%s=%s is Java %d, needs %d or newer", used ? "; " : "", names[i],
                     home, feature, MIN_JAVA_FEATURE);
            continue;
        }
        /* As the java launcher does: global, so the JDK's own libraries resolve against this libjvm. */
        void *h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
        if (h == NULL) {
            snprintf(why + used, why_cap - used, "%sdlopen(%s): %s", used ? "; " : "", lib, dlerror());
            continue;
        }
        snprintf(chosen, cap, "%s", home);
        return h;
    }
    if (why[0] == '\0') {
        snprintf(why, why_cap, "no JDK: set XDLINK_JAVA_HOME or JAVA_HOME to a JDK %d", MIN_JAVA_FEATURE);
    }
    return NULL;
}

static int find_loaded_jvm(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    const char *name = info->dlpi_name;
    size_t n = name != NULL ? strlen(name) : 0;
    if (n >= 10 && strcmp(name + n - 10, "/libjvm.so") == 0) {
        snprintf((char *)data, PATH_MAX, "%s", name);
        return 1;
    }
    return 0;
}

typedef jint (*get_created_vms_t)(JavaVM **, jsize, jsize *);
typedef jint (*create_vm_t)(JavaVM **, void **, void *);

/* The JVM already running in this process, if any. */
static JavaVM *existing_vm(void) {
    get_created_vms_t get = (get_created_vms_t)dlsym(RTLD_DEFAULT, "JNI_GetCreatedJavaVMs");
    if (get == NULL) {
        char path[PATH_MAX] = {0};
        dl_iterate_phdr(find_loaded_jvm, path);
        if (path[0] != '\0') {
            void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
            if (h != NULL) {
                get = (get_created_vms_t)dlsym(h, "JNI_GetCreatedJavaVMs");
            }
        }
    }
    if (get == NULL) {
        return NULL;
    }
    JavaVM *vm = NULL;
    jsize count = 0;
    if (get(&vm, 1, &count) != JNI_OK || count < 1) {
        return NULL;
    }
    return vm;
}

/* ---- calling NativeBridge.install ---- */

static void exception_text(JNIEnv *env, char *out, size_t cap) {
    jthrowable ex = (*env)->ExceptionOccurred(env);
    (*env)->ExceptionClear(env);
    snprintf(out, cap, "a Java exception");
    if (ex == NULL) {
        return;
    }
    jclass cls = (*env)->FindClass(env, "java/lang/Throwable");
    jmethodID to_string = cls != NULL ? (*env)->GetMethodID(env, cls, "toString", "()Ljava/lang/String;") : NULL;
    jstring s = to_string != NULL ? (jstring)(*env)->CallObjectMethod(env, ex, to_string) : NULL;
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env);
        return;
    }
    if (s != NULL) {
        const char *chars = (*env)->GetStringUTFChars(env, s, NULL);
        if (chars != NULL) {
            snprintf(out, cap, "%s", chars);
            (*env)->ReleaseStringUTFChars(env, s, chars);
        }
    }
}

/*
 * Loads the bridge through the system class loader. FindClass would use the loader of the calling Java frame,
 * which for a host that reached us through an FFM downcall is the boot loader, where our classes never are.
 */
static int call_install(JNIEnv *env, char *why, size_t cap) {
    jclass loader_cls = (*env)->FindClass(env, "java/lang/ClassLoader");
    jmethodID system = loader_cls ? (*env)->GetStaticMethodID(env, loader_cls, "getSystemClassLoader",
                                                              "()Ljava/lang/ClassLoader;") : NULL;
    jmethodID load = loader_cls ? (*env)->GetMethodID(env, loader_cls, "loadClass",
                                                      "(Ljava/lang/String;)Ljava/lang/Class;") : NULL;
    if (system == NULL || load == NULL) {
        exception_text(env, why, cap);
        return -1;
    }
    jobject loader = (*env)->CallStaticObjectMethod(env, loader_cls, system);
    jstring name = loader != NULL ? (*env)->NewStringUTF(env, BRIDGE_CLASS) : NULL;
    jclass bridge = name != NULL ? (jclass)(*env)->CallObjectMethod(env, loader, load, name) : NULL;
    if (bridge == NULL || (*env)->ExceptionCheck(env)) {
        char text[512];
        exception_text(env, text, sizeof text);
        snprintf(why, cap, "cannot load %s from the class path (%s)", BRIDGE_CLASS, text);
        return -1;
    }
    jmethodID install = (*env)->GetStaticMethodID(env, bridge, "install", "(JJ)I");
    if (install == NULL) {
        exception_text(env, why, cap);
        return -1;
    }
    jint rc = (*env)->CallStaticIntMethod(env, bridge, install, (jlong)(intptr_t)&xdl_register,
                                          (jlong)(intptr_t)&xdl_log);
    if ((*env)->ExceptionCheck(env)) {
        exception_text(env, why, cap);
        return -1;
    }
    if (rc != 0 || xdl_api() == NULL) {
        snprintf(why, cap, "%s.install returned %d without registering its entry points", BRIDGE_CLASS, (int)rc);
        return -1;
    }
    return 0;
}

static int install_into(JavaVM *vm, char *why, size_t cap) {
    JNIEnv *env = NULL;
    int attached = 0;
    jint st = (*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_21);
    if (st == JNI_EDETACHED) {
        if ((*vm)->AttachCurrentThreadAsDaemon(vm, (void **)&env, NULL) != JNI_OK) {
            snprintf(why, cap, "cannot attach this thread to the running JVM");
            return -1;
        }
        attached = 1;
    } else if (st != JNI_OK) {
        snprintf(why, cap, "the running JVM refused JNI version 21 (%d)", (int)st);
        return -1;
    }
    int rc = call_install(env, why, cap);
    if (attached) {
        (*vm)->DetachCurrentThread(vm);
    }
    return rc;
}

struct create_job {
    create_vm_t create;
    JavaVMOption *options;
    int noptions;
    int rc;
    char why[768];
};

/* Runs on a thread of its own with a stack of known size: the host's calling thread may have a small one. */
static void *create_and_install(void *arg) {
    struct create_job *job = arg;
    JavaVMInitArgs args = {.version = JNI_VERSION_21, .nOptions = job->noptions, .options = job->options,
                           .ignoreUnrecognized = JNI_FALSE};
    JavaVM *vm = NULL;
    JNIEnv *env = NULL;
    jint st = job->create(&vm, (void **)&env, &args);
    if (st != JNI_OK) {
        snprintf(job->why, sizeof job->why, "JNI_CreateJavaVM failed with %d", (int)st);
        job->rc = -1;
        return NULL;
    }
    the_vm = vm;
    job->rc = call_install(env, job->why, sizeof job->why);
    (*vm)->DetachCurrentThread(vm);
    return NULL;
}

static void start_java(void) {
    char why[1024];
    JavaVM *vm = existing_vm();
    if (vm != NULL) {
        the_vm = vm;
        if (install_into(vm, why, sizeof why) != 0) {
            fail("the JVM already in this process cannot run xdlink: %s", why);
        } else {
            logf_c(CCL_LOG_INFO, "NET/xdlink : using the JVM already running in this process");
        }
        return;
    }

    char so[PATH_MAX];
    if (plugin_path(so, sizeof so) != 0) {
        fail("cannot tell where the plugin library was loaded from");
        return;
    }
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", so);
    char *slash = strrchr(dir, '/');
    if (slash != NULL) {
        *slash = '\0';
    }

    char home[PATH_MAX];
    void *jvm = open_libjvm(home, sizeof home, why, sizeof why);
    if (jvm == NULL) {
        fail("%s", why);
        return;
    }
    if (why[0] != '\0') {
        logf_c(CCL_LOG_INFO, "NET/xdlink : passed over: %s", why);
    }
    create_vm_t create = (create_vm_t)dlsym(jvm, "JNI_CreateJavaVM");
    if (create == NULL) {
        fail("%s/lib/server/libjvm.so has no JNI_CreateJavaVM", home);
        return;
    }
    char *cp = class_path_option(dir);
    if (cp == NULL) {
        fail("no jars beside %s: the plugin directory must hold the xdlink jars", so);
        return;
    }
    char lib_option[PATH_MAX + 32];
    snprintf(lib_option, sizeof lib_option, "-Dxdlink.plugin.library=%s", so);

    char aot_option[PATH_MAX + 32];
    char aot_why[PATH_MAX * 2 + 64] = "";
    int aot = aot_cache_option(dir, home, aot_option, sizeof aot_option, aot_why, sizeof aot_why);

    /* XDLINK_JAVA_OPTIONS come last, so they can override what comes before them. */
    char *extra = getenv("XDLINK_JAVA_OPTIONS") != NULL ? strdup(getenv("XDLINK_JAVA_OPTIONS")) : NULL;
    char *extra_opts[MAX_EXTRA_OPTIONS];
    int extras = 0;
    int own_collector = 1;
    if (extra != NULL) {
        char *save = NULL;
        for (char *tok = strtok_r(extra, " \t", &save); tok != NULL; tok = strtok_r(NULL, " \t", &save)) {
            if (extras == MAX_EXTRA_OPTIONS) {
                logf_c(CCL_LOG_WARN, "NET/xdlink : XDLINK_JAVA_OPTIONS has more than %d options; ignoring '%s' on",
                       MAX_EXTRA_OPTIONS, tok);
                break;
            }
            if (picks_collector(tok)) {
                own_collector = 0;
            }
            extra_opts[extras++] = tok;
        }
    }

    JavaVMOption options[8 + MAX_EXTRA_OPTIONS];
    int n = 0;
    options[n++].optionString = cp;
    options[n++].optionString = "--enable-native-access=ALL-UNNAMED";
    /* The host owns SIGINT, SIGTERM and SIGHUP; Java must not turn them into its own shutdown. */
    options[n++].optionString = "-Xrs";
    options[n++].optionString = lib_option;
    if (aot) {
        /* Whatever the JVM still refuses (a damaged file, a moved directory), it skips in silence rather than
         * printing into the host's output; XDLINK_JAVA_OPTIONS, which comes later, can turn the logging back on. */
        options[n++].optionString = aot_option;
        options[n++].optionString = "-Xlog:aot*=off";
        options[n++].optionString = "-Xlog:cds*=off";
    }
    if (own_collector) {
        /* The parallel collector, as the xdlink launcher picks it: the rails' data path allocates next to nothing
         * once it runs, and G1, the JDK's own choice on two or more processors, adds a barrier to every reference
         * store; side by side it left the 64 KiB stream slower (docs/benchmarks.md, "The JVM's collector"). */
        options[n++].optionString = "-XX:+UseParallelGC";
    }
    for (int i = 0; i < extras; i++) {
        options[n++].optionString = extra_opts[i];
    }
    for (int i = 0; i < n; i++) {
        options[i].extraInfo = NULL;
    }

    struct create_job job = {.create = create, .options = options, .noptions = n, .rc = -1};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 8UL << 20);
    pthread_t t;
    int err = pthread_create(&t, &attr, create_and_install, &job);
    pthread_attr_destroy(&attr);
    if (err != 0) {
        fail("cannot start the JVM's thread: %s", strerror(err));
    } else {
        pthread_join(t, NULL);
        if (job.rc != 0) {
            fail("starting Java from %s failed: %s", home, job.why);
        } else {
            logf_c(CCL_LOG_INFO, "NET/xdlink : started Java from %s with the jars in %s (%s%s; %s)", home, dir,
                   aot ? "offered the ahead-of-time cache " : "no ahead-of-time cache: ", aot ? aot_option + 13 : aot_why,
                   own_collector ? "the parallel collector" : "the collector XDLINK_JAVA_OPTIONS picks");
        }
    }
    free(extra);
    free(cp);
}

ccl_result_t xdl_ensure_java(void) {
    if (xdl_api() != NULL) {
        return ccl_success;
    }
    pthread_mutex_lock(&boot_lock);
    if (xdl_api() == NULL && !boot_failed) {
        start_java();
    }
    int failed = xdl_api() == NULL;
    pthread_mutex_unlock(&boot_lock);
    if (failed) {
        logf_c(CCL_LOG_WARN, "NET/xdlink : cannot run Java, so this plugin is unavailable: %s", boot_error);
        return ccl_system_error;
    }
    return ccl_success;
}
