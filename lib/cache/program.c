/* In-memory and on-disk program reuse. The disk key holds everything that can change the
 * binary: platform version, device name, driver version, build options and the source.
 *
 * A cached binary can load and build yet still be unusable: it lacks a kernel the source
 * declares (caught here, at load), or its kernels cannot launch as the source's would
 * (CL_INVALID_WORK_GROUP_SIZE at enqueue: the launcher calls clf_program_evict). Either way
 * the file is removed and the program rebuilt from source, so one bad file never fails
 * every later run. */
#define _POSIX_C_SOURCE 200809L
#include "cache/program.h"
#include "core/alloc.h"
#include "cache/cache.h"
#include "clw/clw.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

typedef struct program_entry {
    XXH128_hash_t key;
    cl_program program;
    char *disk_path; /* the cache file it was loaded from; NULL when built here */
    int evicted;     /* found unusable: lookups skip it; kept (with its reference) until the
                      * handle goes, so kernels made from it still name a known program */
    struct program_entry *next;
} program_entry;

struct clf_program_cache {
    program_entry *head;
};

void clf_program_cache_destroy(struct miopenHandle *h)
{
    if (h->programs == NULL)
        return;
    program_entry *e = h->programs->head;
    while (e) {
        program_entry *next = e->next;
        clf_clw_release_program(e->program);
        clf_free(e->disk_path);
        clf_free(e);
        e = next;
    }
    clf_free(h->programs);
    h->programs = NULL;
}

/* The occupancy hint as the program builder takes it: 2..32 work-groups per compute unit,
 * anything else none (0). */
static int min_groups(int hint)
{
    return hint > 1 && hint <= 32 ? hint : 0;
}

char *clf_program_key_material(miopenHandle_t h, const char *source, const char *options,
                               int min_groups_per_cu, size_t *len)
{
    const clfuse_DeviceInfo *i = &h->info;
    size_t n = strlen(i->platform_version) + strlen(i->name) + strlen(i->driver_version) +
               strlen(options) + strlen(source) + 96;
    char *buf = clf_malloc(n);
    if (buf == NULL)
        return NULL;
    /* The hint changes the binary (PTX rebuilt with .minnctapersm), so it is a line of the
     * key; absent when there is none, so programs without one keep the keys they had. */
    char hint[48] = "";
    if (min_groups(min_groups_per_cu))
        snprintf(hint, sizeof hint, "min groups per CU %d\n", min_groups(min_groups_per_cu));
    int w = snprintf(buf, n, "%s\n%s\n%s\n%s\n%s%s", i->platform_version, i->name,
                     i->driver_version, options, hint, source);
    *len = (size_t)w;
    return buf;
}

/* Compiler remarks of a successful build (register counts with -cl-nv-verbose), for kernel
 * work; frees log. */
static void log_remarks(const char *what, char *log)
{
    if (log && log[strspn(log, " \t\r\n")] != '\0')
        clf_log(CLF_LOG_INFO, "%s: build log: %s", what, log);
    clf_free(log);
}

/* PoCL's compiler (clang) prints "N warnings generated." on the process's stderr itself,
 * whatever becomes of the build log. So on PoCL, below MIOPEN_LOG_LEVEL=5 (where build logs
 * are printed anyway), builds from source pass -w: an OpenCL option that only silences
 * warnings, so it stays out of the binary-cache key (PoCL's own cache keys on it, so it
 * keeps one entry per setting). Elsewhere the options are left alone. */
static int on_pocl(miopenHandle_t h)
{
    return strstr(h->info.platform_name, "Portable Computing Language") != NULL;
}

static const char *quiet_options(miopenHandle_t h, const char *options, char *buf, size_t cap)
{
    if (!on_pocl(h) || clf_log_level() >= CLF_LOG_INFO)
        return options;
    int n = snprintf(buf, cap, "%s%s-w", options, options[0] ? " " : "");
    return n > 0 && (size_t)n < cap ? buf : options;
}

/* Whether the on-disk binary cache pays on this device. PoCL keeps its own kernel cache
 * (keyed on source and options, warm in 0.2 s), and reading a program's binary makes it
 * compile every kernel once more for a default work-group size: storing binaries doubled
 * cold builds there (8.1 s against 4.3 s for one 3x3 CBA plan on 2 cores) and bought
 * nothing warm (0.17 s against 0.19 s). So PoCL gets no clfuse binaries unless
 * CLFUSE_BINARY_CACHE=1; CLFUSE_BINARY_CACHE=0 turns the cache off on any device. */
static int binary_cache_wanted(miopenHandle_t h)
{
    const char *env = getenv("CLFUSE_BINARY_CACHE");
    if (env && *env)
        return strcmp(env, "0") != 0;
    return !on_pocl(h);
}

/* Builds prog; the build log head goes into the failure message. */
static miopenStatus_t build(miopenHandle_t h, const char *what, cl_program prog,
                            const char *options)
{
    char *log = NULL;
    char quiet[4096];
    cl_int err = clf_clw_build_program(prog, h->device,
                                       quiet_options(h, options, quiet, sizeof quiet), &log);
    if (err == CL_SUCCESS) {
        log_remarks(what, log);
        return miopenStatusSuccess;
    }
    char head[2048] = "(no build log)";
    if (log)
        clf_strlcpy(head, log, sizeof head);
    clf_free(log);
    return clf_fail(h, miopenStatusInternalError,
                    "%s: clBuildProgram failed on '%s' (%s), options \"%s\"; build log: %s", what,
                    h->info.name, clf_cl_error_name(err), options, head);
}

/* A program built from a binary (the on-disk cache's, or patched PTX), or NULL with the
 * OpenCL error in *err and *created telling whether the driver took the binary at all.
 * The build's remarks are logged under `what`, or dropped when it is NULL (cache loads). */
static cl_program from_binary(miopenHandle_t h, const char *what, const unsigned char *bin,
                              size_t len, const char *options, cl_int *err, int *created)
{
    cl_program prog = clf_clw_program_from_binary(h->context, h->device, bin, len, err);
    *created = prog != NULL;
    if (prog == NULL)
        return NULL;
    char *log = NULL;
    *err = clf_clw_build_program(prog, h->device, options, &log);
    if (*err != CL_SUCCESS) {
        clf_free(log);
        clf_clw_release_program(prog);
        return NULL;
    }
    if (what)
        log_remarks(what, log);
    else
        clf_free(log);
    return prog;
}

static cl_program from_disk(miopenHandle_t h, const char *what, const clf_cache *cache,
                            const char *km, size_t km_len, const char *options)
{
    unsigned char *bin = NULL;
    size_t len = 0;
    char why[512];
    if (!clf_cache_load(cache, km, km_len, &bin, &len, why, sizeof why)) {
        if (why[0])
            clf_log(CLF_LOG_WARNING, "%s: binary cache: %s; rebuilding from source", what, why);
        return NULL;
    }
    cl_int err;
    int created = 0;
    cl_program prog = from_binary(h, NULL, bin, len, options, &err, &created);
    clf_free(bin);
    if (prog == NULL)
        clf_log(CLF_LOG_WARNING, "%s: cached binary %s (%s); rebuilding", what,
                created ? "failed to build" : "rejected by the driver", clf_cl_error_name(err));
    return prog;
}

/* Skips blanks and comments. */
static const char *skip_space(const char *p)
{
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            ++p;
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                ++p;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *end = strstr(p + 2, "*/");
            p = end ? end + 2 : p + strlen(p);
        } else {
            return p;
        }
    }
}

static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Checks that every kernel the source declares ("__kernel [__attribute__((...))] void NAME(")
 * can be created from prog. 0, or -1 with the reason in why. */
static int check_kernels(const char *source, cl_program prog, char *why, size_t cap)
{
    static const char kw[] = "__kernel";
    for (const char *p = strstr(source, kw); p; p = strstr(p + 1, kw)) {
        if ((p > source && ident_char(p[-1])) || ident_char(p[sizeof kw - 1]))
            continue;
        const char *q = skip_space(p + sizeof kw - 1);
        while (strncmp(q, "__attribute__", 13) == 0) {
            q = skip_space(q + 13);
            if (*q != '(')
                break;
            int depth = 0;
            do {
                depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
                ++q;
            } while (*q && depth > 0);
            q = skip_space(q);
        }
        if (strncmp(q, "void", 4) != 0 || ident_char(q[4]))
            continue; /* not a declaration this scan understands: nothing to check */
        q = skip_space(q + 4);
        char name[128];
        size_t n = 0;
        while (ident_char(q[n]) && n + 1 < sizeof name) {
            name[n] = q[n];
            ++n;
        }
        name[n] = '\0';
        if (n == 0 || *skip_space(q + n) != '(')
            continue;
        cl_int err;
        cl_kernel k = clf_clw_create_kernel(prog, name, &err);
        if (k == NULL) {
            snprintf(why, cap, "kernel '%s' of the source: clCreateKernel: %s", name,
                     clf_cl_error_name(err));
            return -1;
        }
        clf_clw_release_kernel(k);
    }
    return 0;
}

/* Removes a cache file found unusable, saying so once. */
static void discard_file(const char *what, const char *path, const char *why)
{
    if (unlink(path) == 0)
        clf_log(CLF_LOG_WARNING, "%s: cached binary %s %s; removed, rebuilding from source", what,
                path, why);
    else
        clf_log(CLF_LOG_WARNING,
                "%s: cached binary %s %s; could not remove it (%s), rebuilding "
                "from source",
                what, path, why, strerror(errno));
}

int clf_program_evict(miopenHandle_t h, cl_program prog, const char *what)
{
    char *path = NULL;
    int from_disk = 0;
    pthread_mutex_lock(&h->lock);
    for (program_entry *e = h->programs ? h->programs->head : NULL; e; e = e->next) {
        if (e->program != prog)
            continue;
        if (e->disk_path) {
            from_disk = 1;
            if (!e->evicted) { /* the first plan to fail removes the file; later ones rebuild */
                e->evicted = 1;
                path = e->disk_path;
            }
        }
        break;
    }
    pthread_mutex_unlock(&h->lock);
    if (path) /* entries are only freed with the handle: path stays valid */
        discard_file(what, path, "cannot launch its kernel");
    return from_disk;
}

/* OpenCL C cannot ask for several work-groups per compute unit, so NVIDIA's compiler sizes
 * registers for one: a kernel with reqd_work_group_size(192) may take 255 registers per
 * work-item and leave 6 warps on an SM. Its program binary is PTX text, where the entry's
 * .reqntid line can be followed by .minnctapersm n, which makes ptxas fit n groups. When
 * the build spec asks for it and the binary is such PTX, the program is rebuilt from the
 * patched PTX; anywhere else, or if the driver refuses the patch, the program stays as
 * built (a slower kernel, never a failure). */
static cl_program apply_min_groups(miopenHandle_t h, const char *what, cl_program prog,
                                   const char *options, int groups)
{
    unsigned char *bin = NULL;
    size_t len = 0;
    if (clf_clw_program_binary(prog, &bin, &len) != CL_SUCCESS || bin == NULL)
        return prog;
    char *text = clf_malloc(len + 1);
    if (text == NULL) {
        clf_free(bin);
        return prog;
    }
    memcpy(text, bin, len);
    text[len] = '\0';
    clf_free(bin);
    char *req = strstr(text, "\n.reqntid ");
    char *eol = req ? strchr(req + 1, '\n') : NULL;
    if (strstr(text, "\n.target sm_") == NULL || eol == NULL ||
        strstr(text, ".minnctapersm") != NULL) {
        clf_free(text);
        return prog;
    }
    char directive[40];
    int dlen = snprintf(directive, sizeof directive, "\n.minnctapersm %d", groups);
    size_t head = (size_t)(eol - text), tlen = strlen(text);
    char *patched = clf_malloc(tlen + (size_t)dlen + 1);
    if (patched == NULL) {
        clf_free(text);
        return prog;
    }
    memcpy(patched, text, head);
    memcpy(patched + head, directive, (size_t)dlen);
    memcpy(patched + head + dlen, text + head, tlen - head + 1);
    clf_free(text);
    cl_int err;
    int created;
    cl_program np = from_binary(h, what, (unsigned char *)patched, tlen + (size_t)dlen + 1, options,
                                &err, &created);
    clf_free(patched);
    if (np == NULL) {
        clf_log(CLF_LOG_WARNING,
                "%s: PTX with .minnctapersm %d refused (%s); keeping the plain build", what, groups,
                clf_cl_error_name(err));
        return prog;
    }
    clf_clw_release_program(prog);
    return np;
}

/* The on-disk cache as h uses it (disabled where it is not wanted); returns cache->enabled. */
static int disk_cache(miopenHandle_t h, clf_cache *cache)
{
    clf_cache_init(cache, CLFUSE_VERSION_STRING);
    if (!binary_cache_wanted(h))
        cache->enabled = 0;
    return cache->enabled;
}

/* The handle's usable program of this key, or NULL. Under h->lock. */
static program_entry *find_in_memory(miopenHandle_t h, XXH128_hash_t key)
{
    program_entry *e = h->programs ? h->programs->head : NULL;
    while (e && (e->evicted || !XXH128_isEqual(e->key, key)))
        e = e->next;
    return e;
}

int clf_program_disk_cache_on(miopenHandle_t h)
{
    clf_cache cache;
    return disk_cache(h, &cache);
}

int clf_program_cached(miopenHandle_t h, const char *source, const char *options,
                       int min_groups_per_cu)
{
    size_t km_len = 0;
    char *km = clf_program_key_material(h, source, options, min_groups_per_cu, &km_len);
    if (km == NULL)
        return 0;
    XXH128_hash_t key = XXH3_128bits(km, km_len);
    pthread_mutex_lock(&h->lock);
    int found = find_in_memory(h, key) != NULL;
    pthread_mutex_unlock(&h->lock);
    clf_cache cache;
    if (!found && disk_cache(h, &cache)) {
        char path[CLF_CACHE_PATH_MAX];
        clf_cache_path(&cache, km, km_len, path, sizeof path);
        found = path[0] != '\0' && access(path, R_OK) == 0;
    }
    clf_free(km);
    return found;
}

miopenStatus_t clf_program_get(miopenHandle_t h, const char *what, const char *source,
                               const char *options, int min_groups_per_cu, cl_program *out,
                               clf_program_origin *origin)
{
    *out = NULL;
    size_t km_len = 0;
    char *km = clf_program_key_material(h, source, options, min_groups_per_cu, &km_len);
    if (km == NULL)
        return clf_fail(h, miopenStatusAllocFailed, "%s: out of host memory", what);
    XXH128_hash_t key = XXH3_128bits(km, km_len);

    pthread_mutex_lock(&h->lock);
    if (h->programs == NULL)
        h->programs = clf_calloc(1, sizeof *h->programs);
    program_entry *e = find_in_memory(h, key);
    if (e && clf_clw_retain_program(e->program) == CL_SUCCESS) {
        pthread_mutex_unlock(&h->lock);
        clf_free(km);
        *out = e->program;
        if (origin)
            *origin = CLF_PROGRAM_IN_MEMORY;
        return miopenStatusSuccess;
    }
    pthread_mutex_unlock(&h->lock);

    clf_cache cache;
    disk_cache(h, &cache);
    clf_program_origin how = CLF_PROGRAM_FROM_DISK;
    cl_program prog = cache.enabled ? from_disk(h, what, &cache, km, km_len, options) : NULL;
    char *disk_path = NULL;
    if (prog != NULL) {
        char path[CLF_CACHE_PATH_MAX], why[512];
        clf_cache_path(&cache, km, km_len, path, sizeof path);
        if (check_kernels(source, prog, why, sizeof why) != 0) {
            discard_file(what, path, why);
            clf_clw_release_program(prog);
            prog = NULL;
        } else {
            disk_path = clf_malloc(strlen(path) + 1);
            if (disk_path) /* out of memory only costs a later eviction */
                memcpy(disk_path, path, strlen(path) + 1);
        }
    }
    if (prog == NULL) {
        how = CLF_PROGRAM_BUILT;
        cl_int err;
        prog = clf_clw_program_from_source(h->context, source, &err);
        if (prog == NULL) {
            clf_free(km);
            return clf_fail(h, miopenStatusInternalError, "%s: clCreateProgramWithSource: %s", what,
                            clf_cl_error_name(err));
        }
        miopenStatus_t st = build(h, what, prog, options);
        if (st != miopenStatusSuccess) {
            clf_clw_release_program(prog);
            clf_free(km);
            return st;
        }
        int groups = min_groups(min_groups_per_cu);
        if (groups > 1)
            prog = apply_min_groups(h, what, prog, options, groups);
        if (cache.enabled) {
            unsigned char *bin = NULL;
            size_t len = 0;
            char err_msg[512];
            err = clf_clw_program_binary(prog, &bin, &len);
            if (err != CL_SUCCESS)
                clf_log(CLF_LOG_WARNING, "%s: cannot read the program binary (%s); not cached",
                        what, clf_cl_error_name(err));
            else if (clf_cache_store(&cache, km, km_len, bin, len, err_msg, sizeof err_msg) != 0)
                clf_log(CLF_LOG_WARNING, "%s: binary cache: %s", what, err_msg);
            clf_free(bin);
        }
    }
    clf_free(km);

    program_entry *ne = clf_malloc(sizeof *ne);
    pthread_mutex_lock(&h->lock);
    if (ne && h->programs) {
        /* The map keeps the reference we built; the caller gets its own. */
        ne->key = key;
        ne->program = prog;
        ne->disk_path = disk_path;
        ne->evicted = 0;
        ne->next = h->programs->head;
        h->programs->head = ne;
        if (clf_clw_retain_program(prog) != CL_SUCCESS) {
            h->programs->head = ne->next; /* cannot share it: keep the caller's only */
            clf_free(ne->disk_path);
            clf_free(ne);
        }
    } else {
        clf_free(ne); /* out of memory only costs the in-memory reuse */
        clf_free(disk_path);
    }
    pthread_mutex_unlock(&h->lock);
    *out = prog;
    if (origin)
        *origin = how;
    return miopenStatusSuccess;
}
