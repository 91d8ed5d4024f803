/* On-disk cache of OpenCL program binaries.
 *
 * No OpenCL here: the caller builds the key material (platform version,
 * device name, driver version, build options and the full program source,
 * joined), hands over the bytes from clGetProgramInfo(CL_PROGRAM_BINARIES)
 * to store, and gets bytes back to give to clCreateProgramWithBinary.
 *
 * One file per entry: <dir>/<32 hex chars>.clbin, the hex being the
 * XXH3-128 hash of the key material. File layout, little-endian, no padding:
 *
 *   offset size  field
 *        0    8  magic "CLFUSEBN"
 *        8    4  format version (u32, CLF_CACHE_FORMAT_VERSION)
 *       12   16  key hash (XXH3-128, canonical big-endian bytes)
 *       28    8  key material length (u64)
 *       36    8  payload length (u64)
 *       44    8  payload checksum (u64, XXH3-64 of the payload)
 *       52    -  payload
 *
 * Stores are atomic (temp file in the same dir, fsync, rename), so readers
 * see either no file or a complete one; a bad file found by a load is
 * removed so the next build replaces it.
 */
#ifndef CLFUSE_CACHE_H
#define CLFUSE_CACHE_H

#include <stddef.h>

#define CLF_CACHE_FORMAT_VERSION 1u
#define CLF_CACHE_HEADER_SIZE 52u
/* Loads refuse larger payload lengths before allocating; stores refuse them too. */
#define CLF_CACHE_MAX_PAYLOAD ((size_t)512 * 1024 * 1024)
/* Enough for any clf_cache_path result: dir + '/' + 32 hex + ".clbin" + NUL. */
#define CLF_CACHE_PATH_MAX (4096 + 64)

typedef struct clf_cache {
    char dir[4096];
    int enabled;
} clf_cache;

/* Resolves the cache dir from the environment:
 *   MIOPEN_DISABLE_CACHE = 1/true/yes/on (any case) => enabled = 0, dir = "";
 *   else MIOPEN_CUSTOM_CACHE_DIR (if set and non-empty);
 *   else $XDG_CACHE_HOME/clfuse/<version> (if absolute);
 *   else $HOME/.cache/clfuse/<version> (if non-empty);
 *   else /tmp/clfuse-cache-<uid>/<version>.
 * Trailing slashes are dropped. A dir that does not fit disables the cache.
 * version NULL or "" reads as "unknown". Does not create the dir. */
void clf_cache_init(clf_cache *c, const char *version);

/* Returns 1 on a hit (*bin malloc'ed, caller frees; *bin_len > 0), 0 on a miss.
 * why (may be NULL) gets "" on a plain miss (no file, disabled cache) and a
 * reason naming the path when the file was bad: wrong magic, foreign format
 * version, key hash or key length mismatch, truncated, trailing bytes, absurd
 * length, checksum mismatch; such a file is removed (only if the path still
 * names the file that was read). An unreadable or non-regular file (opened
 * non-blocking: a FIFO never hangs the load) and an entry written by a newer
 * format version give a reason but are left alone. Never crashes on any file
 * content. */
int clf_cache_load(const clf_cache *c, const char *key_material, size_t key_len,
                   unsigned char **bin, size_t *bin_len, char *why, size_t why_cap);

/* Stores atomically: mkdir -p the dir (new dirs 0700), write a unique temp
 * file in the same dir (mode 0600), fsync, rename to the final name, fsync
 * the dir (best effort). Returns 0, or -1 with a message naming the path and
 * the errno string in err (may be NULL). An empty binary or one over
 * CLF_CACHE_MAX_PAYLOAD is refused with -1, and so is replacing an entry of a
 * newer format version (a newer clfuse sharing the directory keeps its good
 * entry). A disabled cache returns 0 and does nothing. */
int clf_cache_store(const clf_cache *c, const char *key_material, size_t key_len,
                    const unsigned char *bin, size_t bin_len, char *err, size_t err_cap);

/* Path of the entry for a key (for messages and tests); "" for a disabled cache. */
void clf_cache_path(const clf_cache *c, const char *key_material, size_t key_len, char *out,
                    size_t cap);

#endif
