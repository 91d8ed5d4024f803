/* Devices: enumerating the platforms' devices, choosing one (CLFUSE_DEVICE), the identity a
 * handle reports (clfuse_GetDeviceInfo), and whether a device can run clfuse's kernels. */
#include "core/core.h"
#include "clw/clw.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

/* Lists every device of every platform, in platform order. A platform or device whose
 * queries fail is skipped, and the first such failure is described in skipped (for the
 * messages of a selection that then finds nothing). */
static miopenStatus_t enumerate(clf_device_candidate *out, unsigned cap, unsigned *count,
                                char *skipped, size_t skipped_cap)
{
    skipped[0] = '\0';
    cl_platform_id plats[MAX_PLATFORMS];
    cl_uint np = 0;
    *count = 0;
    cl_int err = clf_clw_get_platforms(MAX_PLATFORMS, plats, &np);
    if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (err == CL_SUCCESS && np == 0))
        return clf_fail(NULL, miopenStatusNotInitialized,
                        "miopenCreate: no OpenCL platform found (is an ICD such as "
                        "pocl-opencl-icd installed?)");
    if (err != CL_SUCCESS)
        return clf_fail(NULL, miopenStatusNotInitialized, "miopenCreate: clGetPlatformIDs: %s",
                        clf_cl_error_name(err));
    if (np > MAX_PLATFORMS)
        np = MAX_PLATFORMS;
    for (cl_uint p = 0; p < np; ++p) {
        cl_device_id devs[MAX_DEVICES];
        cl_uint nd = 0;
        err = clf_clw_get_devices(plats[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devs, &nd);
        if (err != CL_SUCCESS) {
            /* a platform with no devices is not an error for the others */
            if (err != CL_DEVICE_NOT_FOUND && skipped[0] == '\0')
                snprintf(skipped, skipped_cap, "; platform %u skipped: clGetDeviceIDs: %s",
                         (unsigned)p, clf_cl_error_name(err));
            continue;
        }
        if (nd > MAX_DEVICES)
            nd = MAX_DEVICES;
        for (cl_uint d = 0; d < nd && *count < cap; ++d) {
            clf_device_candidate *c = &out[(*count)++];
            c->platform = plats[p];
            c->device = devs[d];
            c->pi = p;
            c->di = d;
            c->type = 0;
            const char *q = "CL_DEVICE_TYPE";
            err = clf_clw_device_info(devs[d], CL_DEVICE_TYPE, sizeof c->type, &c->type);
            if (err == CL_SUCCESS) {
                q = "CL_DEVICE_NAME";
                err = clf_clw_device_string(devs[d], CL_DEVICE_NAME, c->name, sizeof c->name);
            }
            if (err != CL_SUCCESS) {
                --*count;
                if (skipped[0] == '\0')
                    snprintf(skipped, skipped_cap,
                             "; device %u:%u skipped: clGetDeviceInfo(%s): %s", (unsigned)p,
                             (unsigned)d, q, clf_cl_error_name(err));
            }
        }
    }
    if (*count == 0)
        return clf_fail(NULL, miopenStatusNotInitialized,
                        "miopenCreate: OpenCL platforms found, but no devices%s", skipped);
    return miopenStatusSuccess;
}

static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; ++hay) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            ++i;
        if (i == n)
            return 1;
    }
    return n == 0;
}

/* Platform and device discovery is serialised: with plain OpenCL, two threads making their
 * first handles at once race inside the ICD loader's and PoCL's first initialisation, and
 * one of them saw no devices at all. Enumeration is cheap and rare (once per miopenCreate),
 * so every one takes the lock, not only the first. */
static pthread_mutex_t enumerate_lock = PTHREAD_MUTEX_INITIALIZER;

static miopenStatus_t enumerate_locked(clf_device_candidate *all, unsigned *n, char *skipped,
                                       size_t skipped_cap)
{
    pthread_mutex_lock(&enumerate_lock);
    miopenStatus_t st = enumerate(all, MAX_DEVICES, n, skipped, skipped_cap);
    pthread_mutex_unlock(&enumerate_lock);
    return st;
}

/* CLFUSE_DEVICE: gpu | cpu | P:D | substring of the device name. */
miopenStatus_t clf_device_select(clf_device_candidate *chosen)
{
    clf_device_candidate all[MAX_DEVICES];
    unsigned n = 0;
    char skipped[256];
    miopenStatus_t st = enumerate_locked(all, &n, skipped, sizeof skipped);
    if (st != miopenStatusSuccess)
        return st;
    const char *want = getenv("CLFUSE_DEVICE");
    if (want == NULL || *want == '\0') {
        for (unsigned i = 0; i < n; ++i)
            if (all[i].type & CL_DEVICE_TYPE_GPU) {
                *chosen = all[i];
                return miopenStatusSuccess;
            }
        *chosen = all[0];
        return miopenStatusSuccess;
    }
    char names[1024] = ""; /* the devices there are, for the messages below */
    for (unsigned i = 0; i < n; ++i) {
        char one[300];
        snprintf(one, sizeof one, "%s%u:%u %s", i ? ", " : "", all[i].pi, all[i].di, all[i].name);
        strncat(names, one, sizeof names - strlen(names) - 1);
    }
    unsigned p, d;
    char tail;
    if (sscanf(want, "%u:%u%c", &p, &d, &tail) == 2) {
        for (unsigned i = 0; i < n; ++i)
            if (all[i].pi == p && all[i].di == d) {
                *chosen = all[i];
                return miopenStatusSuccess;
            }
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenCreate: CLFUSE_DEVICE=%s: no device %u on platform %u (have: %s)%s",
                        want, d, p, names, skipped);
    }
    cl_device_type type = clf_strcaseeq(want, "gpu")   ? CL_DEVICE_TYPE_GPU
                          : clf_strcaseeq(want, "cpu") ? CL_DEVICE_TYPE_CPU
                                                       : 0;
    for (unsigned i = 0; i < n; ++i) {
        if (type ? (all[i].type & type) != 0 : contains_nocase(all[i].name, want)) {
            *chosen = all[i];
            return miopenStatusSuccess;
        }
    }
    return clf_fail(NULL, miopenStatusBadParm,
                    "miopenCreate: CLFUSE_DEVICE=%s matches no device (have: %s)%s", want, names,
                    skipped);
}

miopenStatus_t clf_device_find_identity(const char *platform_version, const char *name,
                                        const char *driver_version, clf_device_candidate *found)
{
    clf_device_candidate all[MAX_DEVICES];
    unsigned n = 0;
    char skipped[256];
    miopenStatus_t st = enumerate_locked(all, &n, skipped, sizeof skipped);
    if (st != miopenStatusSuccess)
        return st;
    for (unsigned i = 0; i < n; ++i) {
        clfuse_DeviceInfo info;
        const char *what = NULL;
        if (clf_device_read_info(all[i].platform, all[i].device, &info, &what) != CL_SUCCESS)
            continue;
        if (strcmp(info.platform_version, platform_version) == 0 && strcmp(info.name, name) == 0 &&
            strcmp(info.driver_version, driver_version) == 0) {
            *found = all[i];
            return miopenStatusSuccess;
        }
    }
    return clf_fail(NULL, miopenStatusBadParm, "no device '%s' (driver %s) on platform '%s'%s",
                    name, driver_version, platform_version, skipped);
}

/* cl_nv_device_attribute_query's CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV and _MINOR_NV (CL/cl_ext.h
 * defines them only with NVIDIA's headers). */
#define CLF_CC_MAJOR_NV 0x4000
#define CLF_CC_MINOR_NV 0x4001

/* major * 10 + minor where the device offers cl_nv_device_attribute_query, else 0. Optional:
 * a failed query leaves the tensor-core solver off, never the device unusable. */
static int nv_compute_capability(cl_device_id device)
{
    char ext[8192] = "";
    cl_uint major = 0, minor = 0;
    if (clf_clw_device_string(device, CL_DEVICE_EXTENSIONS, ext, sizeof ext) != CL_SUCCESS ||
        strstr(ext, "cl_nv_device_attribute_query") == NULL)
        return 0;
    if (clf_clw_device_info(device, CLF_CC_MAJOR_NV, sizeof major, &major) != CL_SUCCESS ||
        clf_clw_device_info(device, CLF_CC_MINOR_NV, sizeof minor, &minor) != CL_SUCCESS ||
        major > 100 || minor > 9)
        return 0;
    return (int)(major * 10 + minor);
}

/* A handle with an empty device name or no compute units would key its find-db and binary
 * cache wrongly, so a failed query is not ignored: the first one that fails ends the read. */
cl_int clf_device_read_info(cl_platform_id platform, cl_device_id device, clfuse_DeviceInfo *i,
                            const char **what)
{
    memset(i, 0, sizeof *i);
    cl_int err;
#define Q(call, name)                                                                              \
    if ((err = (call)) != CL_SUCCESS) {                                                            \
        *what = name;                                                                              \
        return err;                                                                                \
    }
    Q(clf_clw_platform_string(platform, CL_PLATFORM_NAME, i->platform_name,
                              sizeof i->platform_name),
      "clGetPlatformInfo(CL_PLATFORM_NAME)");
    Q(clf_clw_platform_string(platform, CL_PLATFORM_VERSION, i->platform_version,
                              sizeof i->platform_version),
      "clGetPlatformInfo(CL_PLATFORM_VERSION)");
    Q(clf_clw_device_string(device, CL_DEVICE_VENDOR, i->vendor, sizeof i->vendor),
      "clGetDeviceInfo(CL_DEVICE_VENDOR)");
    Q(clf_clw_device_string(device, CL_DEVICE_NAME, i->name, sizeof i->name),
      "clGetDeviceInfo(CL_DEVICE_NAME)");
    Q(clf_clw_device_string(device, CL_DRIVER_VERSION, i->driver_version, sizeof i->driver_version),
      "clGetDeviceInfo(CL_DRIVER_VERSION)");
    Q(clf_clw_device_string(device, CL_DEVICE_VERSION, i->device_version, sizeof i->device_version),
      "clGetDeviceInfo(CL_DEVICE_VERSION)");
    cl_uint cu = 0;
    Q(clf_clw_device_info(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu),
      "clGetDeviceInfo(CL_DEVICE_MAX_COMPUTE_UNITS)");
    i->compute_units = cu;
    cl_ulong gm = 0, lm = 0;
    Q(clf_clw_device_info(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gm, &gm),
      "clGetDeviceInfo(CL_DEVICE_GLOBAL_MEM_SIZE)");
    Q(clf_clw_device_info(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lm, &lm),
      "clGetDeviceInfo(CL_DEVICE_LOCAL_MEM_SIZE)");
    i->global_mem_bytes = gm;
    i->local_mem_bytes = lm;
    size_t wg = 0;
    Q(clf_clw_device_info(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg),
      "clGetDeviceInfo(CL_DEVICE_MAX_WORK_GROUP_SIZE)");
    i->max_work_group_size = wg;
    cl_device_type t = 0;
    Q(clf_clw_device_info(device, CL_DEVICE_TYPE, sizeof t, &t), "clGetDeviceInfo(CL_DEVICE_TYPE)");
    i->is_gpu = (t & CL_DEVICE_TYPE_GPU) != 0;
#undef Q
    i->nv_compute_capability = nv_compute_capability(device);
    /* Optional as well: without it the CPU model assumes the widest x86 registers. */
    cl_uint nvw = 0;
    if (clf_clw_device_info(device, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof nvw, &nvw) ==
            CL_SUCCESS &&
        nvw <= 64)
        i->native_vector_width_float = nvw;
    return CL_SUCCESS;
}

int clf_device_is_nvidia(const clfuse_DeviceInfo *i)
{
    return strstr(i->vendor, "NVIDIA") != NULL;
}

int clf_device_vector_width(const clfuse_DeviceInfo *i)
{
    return i->native_vector_width_float > 0 ? (int)i->native_vector_width_float : 16;
}

int clf_device_vector_regs(const clfuse_DeviceInfo *i)
{
    return clf_device_vector_width(i) >= 16 ? 32 : 16;
}

int clf_device_vector_parts(const clfuse_DeviceInfo *i, long lanes)
{
    const long width = clf_device_vector_width(i);
    return (int)((lanes + width - 1) / width);
}

int clf_device_pocl_major(const clfuse_DeviceInfo *i)
{
    if (strstr(i->platform_name, "Portable Computing Language") == NULL)
        return 0;
    const int major = atoi(i->driver_version);
    return major > 0 ? major : 0;
}

/* Why dev cannot run clfuse's kernels (every kernel is built from OpenCL C 1.2 source at
 * run time), or NULL when it can. */
const char *clf_device_unusable(cl_device_id dev, char *why, size_t cap)
{
    cl_bool yes = CL_FALSE;
    cl_int err = clf_clw_device_info(dev, CL_DEVICE_AVAILABLE, sizeof yes, &yes);
    if (err != CL_SUCCESS) {
        snprintf(why, cap, "CL_DEVICE_AVAILABLE: %s", clf_cl_error_name(err));
        return why;
    }
    if (!yes) {
        snprintf(why, cap, "the device is not available (CL_DEVICE_AVAILABLE is false)");
        return why;
    }
    err = clf_clw_device_info(dev, CL_DEVICE_COMPILER_AVAILABLE, sizeof yes, &yes);
    if (err != CL_SUCCESS) {
        snprintf(why, cap, "CL_DEVICE_COMPILER_AVAILABLE: %s", clf_cl_error_name(err));
        return why;
    }
    if (!yes) {
        snprintf(why, cap,
                 "it has no OpenCL C compiler (CL_DEVICE_COMPILER_AVAILABLE is "
                 "false) and clfuse builds its kernels from source");
        return why;
    }
    char version[128];
    int major = 0, minor = 0;
    err = clf_clw_device_string(dev, CL_DEVICE_VERSION, version, sizeof version);
    if (err != CL_SUCCESS || sscanf(version, "OpenCL %d.%d", &major, &minor) != 2) {
        snprintf(why, cap, "CL_DEVICE_VERSION '%s' is not 'OpenCL <major>.<minor> ...'%s%s",
                 version, err != CL_SUCCESS ? ": " : "",
                 err != CL_SUCCESS ? clf_cl_error_name(err) : "");
        return why;
    }
    if (major < 1 || (major == 1 && minor < 2)) {
        snprintf(why, cap, "it implements %s; clfuse needs OpenCL 1.2 or later", version);
        return why;
    }
    return NULL;
}
