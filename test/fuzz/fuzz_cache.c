/* Fuzz target: the program-binary cache loader (lib/cache, clf_cache_load).
 *
 * Input: one mode byte, then the bytes of a cache entry file. The file is written where the
 * cache looks for a fixed key and loaded. A random file never carries the XXH3 hash of the
 * key or a matching payload checksum, so the mode byte lets the harness repair fields
 * before writing, and the fuzzer reaches the checks behind them:
 *   bit 0: the key hash and key length of the fixed key;
 *   bit 1: the payload length = the bytes after the header;
 *   bit 2: the checksum of the bytes after the header.
 * Properties (abort when broken): a hit returns exactly the bytes after the header, and
 * only for a file whose header fields all agree; a bad file gives a reason and is removed,
 * except a newer clfuse's entry (the magic and a format version above this build's, by at
 * most 1000: lib/cache/cache.c), which is a miss with a reason that leaves the file where it
 * is; a miss never returns a buffer. */
#include "fuzz.h"
#include "tmpdir.h"

#include "cache/cache.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

static const char key[] = "fuzz platform|fuzz device|1.0|-cl-std=CL1.2|__kernel void k(){}";

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = v << 8 | p[i];
    return v;
}

/* 1 when the file is a newer clfuse's entry, which a load leaves in place. */
static int newer_entry(const uint8_t *file, size_t len)
{
    if (len < CLF_CACHE_HEADER_SIZE || memcmp(file, "CLFUSEBN", 8) != 0)
        return 0;
    const uint32_t v = (uint32_t)file[8] | (uint32_t)file[9] << 8 | (uint32_t)file[10] << 16 |
                       (uint32_t)file[11] << 24;
    return v > CLF_CACHE_FORMAT_VERSION && v <= CLF_CACHE_FORMAT_VERSION + 1000;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t mode = data[0];
    size_t len = size - 1;
    uint8_t *file = malloc(len ? len : 1);
    if (file == NULL)
        return 0;
    memcpy(file, data + 1, len);
    if (len >= CLF_CACHE_HEADER_SIZE) {
        size_t pay = len - CLF_CACHE_HEADER_SIZE;
        if (mode & 1) {
            XXH128_canonical_t canon;
            XXH128_canonicalFromHash(&canon, XXH3_128bits(key, sizeof key - 1));
            memcpy(file + 12, canon.digest, 16);
            put_u64(file + 28, sizeof key - 1);
        }
        if (mode & 2)
            put_u64(file + 36, pay);
        if (mode & 4)
            put_u64(file + 44, XXH3_64bits(file + CLF_CACHE_HEADER_SIZE, pay));
    }

    clf_cache c;
    memset(&c, 0, sizeof c);
    snprintf(c.dir, sizeof c.dir, "%s", fuzz_tmpdir());
    c.enabled = 1;
    char path[CLF_CACHE_PATH_MAX];
    clf_cache_path(&c, key, sizeof key - 1, path, sizeof path);
    fuzz_write_file(path, file, len);

    unsigned char *bin = NULL;
    size_t bin_len = 0;
    char why[1024];
    int hit = clf_cache_load(&c, key, sizeof key - 1, &bin, &bin_len, why, sizeof why);
    struct stat st;
    int still_there = stat(path, &st) == 0;
    if (hit == 1) {
        if (bin == NULL || bin_len == 0 || len < CLF_CACHE_HEADER_SIZE ||
            bin_len != len - CLF_CACHE_HEADER_SIZE ||
            memcmp(bin, file + CLF_CACHE_HEADER_SIZE, bin_len) != 0 ||
            get_u64(file + 36) != bin_len || get_u64(file + 44) != XXH3_64bits(bin, bin_len) ||
            !still_there) {
            fprintf(stderr, "fuzz_cache: a hit that does not match the file\n");
            abort();
        }
        free(bin);
    } else if (hit == 0) {
        if (bin != NULL && bin_len != 0) {
            fprintf(stderr, "fuzz_cache: a miss returned a buffer\n");
            abort();
        }
        /* The file existed, so a miss means it was bad (a reason, and the file is gone) or a
         * newer build's (a reason, and the file stays). */
        if (why[0] == '\0' || still_there != newer_entry(file, len)) {
            fprintf(stderr, "fuzz_cache: bad file kept or no reason: '%s'\n", why);
            abort();
        }
    } else {
        abort(); /* only 1 or 0 are documented */
    }
    unlink(path);
    free(file);
    return 0;
}
