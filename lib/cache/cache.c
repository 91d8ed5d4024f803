/* On-disk cache of OpenCL program binaries; see cache.h for the file layout. */
#define _POSIX_C_SOURCE 200809L

#include "cache/cache.h"
#include "core/alloc.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

static const char clf_cache_magic[8] = {'C', 'L', 'F', 'U', 'S', 'E', 'B', 'N'};

enum {
    CLF_CACHE_OFF_MAGIC = 0,
    CLF_CACHE_OFF_VERSION = 8,
    CLF_CACHE_OFF_KEYHASH = 12,
    CLF_CACHE_OFF_KEYLEN = 28,
    CLF_CACHE_OFF_PAYLEN = 36,
    CLF_CACHE_OFF_CHECKSUM = 44,
    CLF_CACHE_OFF_END = 52
};
_Static_assert(CLF_CACHE_OFF_END == CLF_CACHE_HEADER_SIZE, "header layout");

/* ---- small helpers ---- */

static void clf_cache_clear(char *buf, size_t cap)
{
    if (buf && cap)
        buf[0] = '\0';
}

static void clf_cache_put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static void clf_cache_put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static uint32_t clf_cache_get_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}
static uint64_t clf_cache_get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static int clf_cache_is_true(const char *s)
{
    return s && (strcasecmp(s, "1") == 0 || strcasecmp(s, "true") == 0 ||
                 strcasecmp(s, "yes") == 0 || strcasecmp(s, "on") == 0);
}

/* 16 canonical (big-endian) bytes of the XXH3-128 key hash. */
static void clf_cache_key_hash(const char *key, size_t key_len, unsigned char out[16])
{
    XXH128_canonical_t canon;
    XXH128_canonicalFromHash(&canon, XXH3_128bits(key_len ? key : "", key_len));
    memcpy(out, canon.digest, 16);
}

/* Writes the entry path into out (CLF_CACHE_PATH_MAX bytes always suffice). */
static void clf_cache_entry_path(const clf_cache *c, const unsigned char hash[16], char *out,
                                 size_t cap)
{
    static const char hex[] = "0123456789abcdef";
    char name[33];
    for (int i = 0; i < 16; i++) {
        name[2 * i] = hex[hash[i] >> 4];
        name[2 * i + 1] = hex[hash[i] & 15];
    }
    name[32] = '\0';
    snprintf(out, cap, "%s/%s.clbin", c->dir, name);
}

/* ---- init / path ---- */

void clf_cache_init(clf_cache *c, const char *version)
{
    if (!c)
        return;
    memset(c, 0, sizeof *c);
    if (!version || !*version)
        version = "unknown";

    if (clf_cache_is_true(getenv("MIOPEN_DISABLE_CACHE")))
        return; /* enabled = 0 */

    const char *custom = getenv("MIOPEN_CUSTOM_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (custom && *custom)
        n = snprintf(c->dir, sizeof c->dir, "%s", custom);
    else if (xdg && xdg[0] == '/') /* XDG: relative values are invalid and ignored */
        n = snprintf(c->dir, sizeof c->dir, "%s/clfuse/%s", xdg, version);
    else if (home && *home)
        n = snprintf(c->dir, sizeof c->dir, "%s/.cache/clfuse/%s", home, version);
    else
        n = snprintf(c->dir, sizeof c->dir, "/tmp/clfuse-cache-%lu/%s", (unsigned long)getuid(),
                     version);
    if (n < 0 || (size_t)n >= sizeof c->dir) { /* would truncate: never use a wrong dir */
        c->dir[0] = '\0';
        return;
    }
    size_t len = (size_t)n;
    while (len > 1 && c->dir[len - 1] == '/')
        c->dir[--len] = '\0';
    c->enabled = 1;
}

void clf_cache_path(const clf_cache *c, const char *key_material, size_t key_len, char *out,
                    size_t cap)
{
    if (!out || cap == 0)
        return;
    out[0] = '\0';
    if (!c || !c->enabled)
        return;
    unsigned char hash[16];
    clf_cache_key_hash(key_material, key_len, hash);
    clf_cache_entry_path(c, hash, out, cap);
}

/* ---- load ---- */

/* Reads exactly len bytes unless EOF/error; returns bytes read, or -1 on error. */
static ssize_t clf_cache_read_full(int fd, unsigned char *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t r = read(fd, buf + got, len - got);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

/* What a non-regular file is, for messages. */
static const char *clf_cache_file_type(mode_t m)
{
    return S_ISDIR(m)                 ? "a directory"
           : S_ISFIFO(m)              ? "a FIFO"
           : S_ISSOCK(m)              ? "a socket"
           : S_ISCHR(m) || S_ISBLK(m) ? "a device"
                                      : "not a plain file";
}

/* 1 when path holds a cache file of a newer format version (which a store must not
 * replace). Opened non-blocking, so a FIFO there cannot hang the check. */
static int clf_cache_newer_entry(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return 0;
    struct stat st;
    unsigned char hdr[CLF_CACHE_OFF_KEYHASH];
    int newer = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        clf_cache_read_full(fd, hdr, sizeof hdr) == (ssize_t)sizeof hdr &&
        memcmp(hdr + CLF_CACHE_OFF_MAGIC, clf_cache_magic, sizeof clf_cache_magic) == 0) {
        uint32_t v = clf_cache_get_u32(hdr + CLF_CACHE_OFF_VERSION);
        newer = v > CLF_CACHE_FORMAT_VERSION && v <= CLF_CACHE_FORMAT_VERSION + 1000;
    }
    close(fd);
    return newer;
}

/* Removes a bad entry, but only if path still names the file we read (a
 * concurrent store may have renamed a fresh one over it). */
static const char *clf_cache_discard(const char *path, const struct stat *st)
{
    struct stat now;
    if (stat(path, &now) != 0)
        return "already gone";
    if (now.st_dev != st->st_dev || now.st_ino != st->st_ino)
        return "replaced concurrently, kept";
    return unlink(path) == 0 ? "removed" : "could not remove";
}

int clf_cache_load(const clf_cache *c, const char *key_material, size_t key_len,
                   unsigned char **bin, size_t *bin_len, char *why, size_t why_cap)
{
    clf_cache_clear(why, why_cap);
    if (bin)
        *bin = NULL;
    if (bin_len)
        *bin_len = 0;
    if (!c || !c->enabled || !bin || !bin_len)
        return 0;

    unsigned char hash[16];
    char path[CLF_CACHE_PATH_MAX];
    char eb[128];
    clf_cache_key_hash(key_material, key_len, hash);
    clf_cache_entry_path(c, hash, path, sizeof path);

    /* O_NONBLOCK: opening a FIFO planted at the entry's path would otherwise wait for a
     * writer forever; with it the open returns at once and fstat below refuses the FIFO. It
     * changes nothing for the regular files we accept. */
    int fd;
    do
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        if (errno != ENOENT && errno != ENOTDIR)
            clf_set_err(why, why_cap, "%s: cannot open: %s", path,
                        clf_strerror(errno, eb, sizeof eb));
        return 0;
    }

    struct stat st;
    if (fstat(fd, &st) != 0) {
        clf_set_err(why, why_cap, "%s: cannot stat: %s", path, clf_strerror(errno, eb, sizeof eb));
        close(fd);
        return 0;
    }
    if (!S_ISREG(st.st_mode)) {
        /* Not ours to remove (a directory, FIFO or device someone put there): ignored, so the
         * program is built from source; a store's rename replaces a FIFO or socket. */
        clf_set_err(why, why_cap, "%s: not a regular file (%s); ignored", path,
                    clf_cache_file_type(st.st_mode));
        close(fd);
        return 0;
    }

    /* From here on every failure is a bad file: describe it, then discard it. */
    char reason[256];
    unsigned char hdr[CLF_CACHE_HEADER_SIZE];
    unsigned char *payload = NULL;
    uint64_t file_size = (uint64_t)st.st_size;

    ssize_t r = clf_cache_read_full(fd, hdr, sizeof hdr);
    if (r < 0) { /* I/O error: report, but do not delete what we could not read */
        clf_set_err(why, why_cap, "%s: read error: %s", path, clf_strerror(errno, eb, sizeof eb));
        close(fd);
        return 0;
    }
    if ((size_t)r < sizeof hdr) {
        snprintf(reason, sizeof reason, "truncated header (%zd of %u bytes)", r,
                 CLF_CACHE_HEADER_SIZE);
        goto bad;
    }
    if (memcmp(hdr + CLF_CACHE_OFF_MAGIC, clf_cache_magic, sizeof clf_cache_magic) != 0) {
        snprintf(reason, sizeof reason, "wrong magic (not a clfuse cache file)");
        goto bad;
    }
    uint32_t version = clf_cache_get_u32(hdr + CLF_CACHE_OFF_VERSION);
    if (version > CLF_CACHE_FORMAT_VERSION && version <= CLF_CACHE_FORMAT_VERSION + 1000) {
        /* A newer clfuse sharing this directory wrote it: a good entry for that build, so it
         * is left in place (and clf_cache_store does not replace it either). */
        clf_set_err(why, why_cap,
                    "%s: written by a newer clfuse (format version %lu, this build "
                    "reads %u); left alone, building from source",
                    path, (unsigned long)version, CLF_CACHE_FORMAT_VERSION);
        close(fd);
        return 0;
    }
    if (version != CLF_CACHE_FORMAT_VERSION) {
        snprintf(reason, sizeof reason, "foreign format version %lu (expected %u)",
                 (unsigned long)version, CLF_CACHE_FORMAT_VERSION);
        goto bad;
    }
    if (memcmp(hdr + CLF_CACHE_OFF_KEYHASH, hash, 16) != 0) {
        snprintf(reason, sizeof reason, "key hash mismatch (entry belongs to another key)");
        goto bad;
    }
    uint64_t stored_key_len = clf_cache_get_u64(hdr + CLF_CACHE_OFF_KEYLEN);
    if (stored_key_len != (uint64_t)key_len) {
        snprintf(reason, sizeof reason, "key length mismatch (%llu stored, %llu expected)",
                 (unsigned long long)stored_key_len, (unsigned long long)key_len);
        goto bad;
    }
    uint64_t pay_len = clf_cache_get_u64(hdr + CLF_CACHE_OFF_PAYLEN);
    if (pay_len == 0 || pay_len > (uint64_t)CLF_CACHE_MAX_PAYLOAD) {
        snprintf(reason, sizeof reason, "absurd payload length %llu (limit %zu)",
                 (unsigned long long)pay_len, CLF_CACHE_MAX_PAYLOAD);
        goto bad;
    }
    if (file_size < CLF_CACHE_HEADER_SIZE + pay_len) {
        snprintf(reason, sizeof reason, "truncated payload (%llu of %llu bytes)",
                 (unsigned long long)(file_size - CLF_CACHE_HEADER_SIZE),
                 (unsigned long long)pay_len);
        goto bad;
    }
    if (file_size > CLF_CACHE_HEADER_SIZE + pay_len) {
        snprintf(reason, sizeof reason, "%llu trailing bytes after the payload",
                 (unsigned long long)(file_size - CLF_CACHE_HEADER_SIZE - pay_len));
        goto bad;
    }

    payload = clf_malloc((size_t)pay_len);
    if (!payload) {
        clf_set_err(why, why_cap, "%s: out of memory for %llu bytes", path,
                    (unsigned long long)pay_len);
        close(fd);
        return 0;
    }
    r = clf_cache_read_full(fd, payload, (size_t)pay_len);
    if (r < 0) {
        clf_set_err(why, why_cap, "%s: read error: %s", path, clf_strerror(errno, eb, sizeof eb));
        clf_free(payload);
        close(fd);
        return 0;
    }
    if ((uint64_t)r != pay_len) { /* shrank under us */
        snprintf(reason, sizeof reason, "truncated payload (%zd of %llu bytes)", r,
                 (unsigned long long)pay_len);
        goto bad;
    }
    uint64_t sum = clf_cache_get_u64(hdr + CLF_CACHE_OFF_CHECKSUM);
    uint64_t actual = XXH3_64bits(payload, (size_t)pay_len);
    if (sum != actual) {
        snprintf(reason, sizeof reason,
                 "payload checksum mismatch (stored %016llx, computed %016llx)",
                 (unsigned long long)sum, (unsigned long long)actual);
        goto bad;
    }

    close(fd);
    *bin = payload;
    *bin_len = (size_t)pay_len;
    return 1;

bad:
    clf_free(payload);
    close(fd);
    clf_set_err(why, why_cap, "%s: %s (%s)", path, reason, clf_cache_discard(path, &st));
    return 0;
}

/* ---- store ---- */

static int clf_cache_write_full(int fd, const unsigned char *buf, size_t len)
{
    size_t put = 0;
    while (put < len) {
        ssize_t w = write(fd, buf + put, len - put);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        put += (size_t)w;
    }
    return 0;
}

int clf_cache_store(const clf_cache *c, const char *key_material, size_t key_len,
                    const unsigned char *bin, size_t bin_len, char *err, size_t err_cap)
{
    clf_cache_clear(err, err_cap);
    if (!c || !c->enabled)
        return 0;

    unsigned char hash[16];
    char path[CLF_CACHE_PATH_MAX];
    char eb[128];
    clf_cache_key_hash(key_material, key_len, hash);
    clf_cache_entry_path(c, hash, path, sizeof path);

    if (!bin || bin_len == 0 || bin_len > CLF_CACHE_MAX_PAYLOAD) {
        clf_set_err(err, err_cap, "%s: refusing to store a binary of %zu bytes (limit %zu)", path,
                    bin ? bin_len : (size_t)0, CLF_CACHE_MAX_PAYLOAD);
        return -1;
    }

    char failed[sizeof c->dir + 128];
    if (clf_mkdir_p(c->dir, 0700, failed, sizeof failed) != 0) {
        clf_set_err(err, err_cap, "cannot create cache directory %s", failed);
        return -1;
    }

    unsigned char hdr[CLF_CACHE_HEADER_SIZE];
    memcpy(hdr + CLF_CACHE_OFF_MAGIC, clf_cache_magic, sizeof clf_cache_magic);
    clf_cache_put_u32(hdr + CLF_CACHE_OFF_VERSION, CLF_CACHE_FORMAT_VERSION);
    memcpy(hdr + CLF_CACHE_OFF_KEYHASH, hash, 16);
    clf_cache_put_u64(hdr + CLF_CACHE_OFF_KEYLEN, (uint64_t)key_len);
    clf_cache_put_u64(hdr + CLF_CACHE_OFF_PAYLEN, (uint64_t)bin_len);
    clf_cache_put_u64(hdr + CLF_CACHE_OFF_CHECKSUM, XXH3_64bits(bin, bin_len));

    /* Temp name lacks the .clbin suffix, so no reader can pick up a half-written file. */
    char tmp[CLF_CACHE_PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        clf_set_err(err, err_cap, "cannot create temporary file %s: %s", tmp,
                    clf_strerror(errno, eb, sizeof eb));
        return -1;
    }
    (void)fcntl(fd, F_SETFD, FD_CLOEXEC);

    const char *what = NULL;
    if (clf_cache_write_full(fd, hdr, sizeof hdr) != 0 ||
        clf_cache_write_full(fd, bin, bin_len) != 0)
        what = "cannot write";
    else if (fsync(fd) != 0)
        what = "cannot fsync";
    int e = errno;
    if (close(fd) != 0 && !what) {
        what = "cannot close";
        e = errno;
    }
    if (what) {
        clf_set_err(err, err_cap, "%s %s: %s", what, tmp, clf_strerror(e, eb, sizeof eb));
        unlink(tmp);
        return -1;
    }
    if (clf_cache_newer_entry(path)) {
        clf_set_err(err, err_cap, "%s: holds an entry of a newer clfuse; not replaced", path);
        unlink(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        e = errno;
        clf_set_err(err, err_cap, "cannot rename %s to %s: %s", tmp, path,
                    clf_strerror(e, eb, sizeof eb));
        unlink(tmp);
        return -1;
    }

    /* Make the rename durable; best effort (some filesystems refuse fsync on dirs). */
    int dfd = open(c->dir, O_RDONLY | O_CLOEXEC | O_DIRECTORY | O_NONBLOCK);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    return 0;
}
