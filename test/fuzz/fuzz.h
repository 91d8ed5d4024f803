/* Shared by the fuzz targets: a reader that turns the fuzzer's bytes into values.
 *
 * Every target defines LLVMFuzzerTestOneInput. Built with CLFUSE_FUZZ=ON (clang), libFuzzer
 * supplies main(); otherwise replay.c supplies one that runs the target over every file of
 * the corpus directories named on its command line, so the normal gcc build (and CI) replays
 * the seed corpora and every recorded crash-* reproducer without clang. */
#ifndef CLFUSE_FUZZ_H
#define CLFUSE_FUZZ_H

/* POSIX (mkdtemp, dirent) for every target: first, before any system header. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Bytes consumed front to back; once empty every read returns 0, so any input is a full
 * scenario (short inputs take the defaults). */
typedef struct fz {
    const uint8_t *p;
    size_t n;
} fz;

static inline uint8_t fz_u8(fz *f)
{
    if (f->n == 0)
        return 0;
    f->n--;
    return *f->p++;
}

static inline uint32_t fz_u32(fz *f)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
        v = v << 8 | fz_u8(f);
    return v;
}

/* A length-like int: mostly small (what real shapes look like, so the fuzzer reaches the
 * paths behind validation), sometimes negative, zero or an arbitrary 32-bit value (the
 * edges: overflow, INT_MIN). */
static inline int fz_dim(fz *f)
{
    uint8_t sel = fz_u8(f);
    switch (sel >> 5) {
    case 0: return 0;
    case 1: return -(int)(sel & 31) - 1;
    case 2: return (int)(int32_t)fz_u32(f);
    default: return (int)(sel & 31) + 1;
    }
}

/* A double: a few special values or raw bits (NaN, infinities, denormals included). */
static inline double fz_double(fz *f)
{
    uint8_t sel = fz_u8(f);
    switch (sel & 7) {
    case 0: return 0.0;
    case 1: return 1.0;
    case 2: return -1.0;
    case 3: return 1e-5;
    case 4: return (double)(int8_t)fz_u8(f) / 8.0;
    default: {
        uint64_t bits = (uint64_t)fz_u32(f) << 32 | fz_u32(f);
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    }
}

/* A NUL-terminated string of at most cap - 1 bytes: length byte, then the bytes. */
static inline void fz_str(fz *f, char *out, size_t cap)
{
    size_t len = fz_u8(f);
    size_t i = 0;
    for (; i < len && i + 1 < cap && f->n > 0; ++i)
        out[i] = (char)fz_u8(f);
    out[i] = '\0';
}

#endif
