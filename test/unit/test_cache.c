/* Unit tests for the on-disk program binary cache (lib/cache).
 *
 * Over 600 lines: one program for one layer; most of the length is the corruption cases
 * (one short test each over the same fixture: a temp cache dir and an entry writer). */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cache/cache.h"
#include "common/test_common.h"

#define VERSION "0.1.0"

static const char *const env_names[] = {"MIOPEN_DISABLE_CACHE", "MIOPEN_CUSTOM_CACHE_DIR",
                                        "XDG_CACHE_HOME", "HOME"};
#define N_ENV (sizeof env_names / sizeof env_names[0])

typedef struct fixture {
    char *saved[N_ENV];
    char tmp[256];
} fixture;

/* ---- helpers ---- */

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    unsigned char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static void clear_env(void)
{
    for (size_t i = 0; i < N_ENV; i++)
        unsetenv(env_names[i]);
}

/* A cache rooted at <tmp>/<sub> (sub NULL: <tmp> itself). */
static void cache_at(clf_cache *c, const fixture *fx, const char *sub)
{
    char dir[512];
    if (sub)
        snprintf(dir, sizeof dir, "%s/%s", fx->tmp, sub);
    else
        snprintf(dir, sizeof dir, "%s", fx->tmp);
    clear_env();
    setenv("MIOPEN_CUSTOM_CACHE_DIR", dir, 1);
    clf_cache_init(c, VERSION);
    assert_int_equal(c->enabled, 1);
    assert_string_equal(c->dir, dir);
}

static const char KEY_A[] =
    "OpenCL 3.0 | gfx1030 | 3.0 driver | -cl-std=CL2.0 | kernel void a() {}";
static const char KEY_B[] =
    "OpenCL 3.0 | gfx1030 | 3.0 driver | -cl-std=CL2.0 | kernel void b() {}";

static void fill_payload(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)((i * 131u + seed * 7u) ^ (i >> 3));
}

static void store_ok(const clf_cache *c, const char *key, const unsigned char *bin, size_t len)
{
    char err[512];
    int rc = clf_cache_store(c, key, strlen(key), bin, len, err, sizeof err);
    if (rc != 0)
        fail_msg("store failed: %s", err);
    assert_string_equal(err, "");
}

/* ---- fixture ---- */

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    if (!fx)
        return -1;
    for (size_t i = 0; i < N_ENV; i++) {
        const char *v = getenv(env_names[i]);
        fx->saved[i] = v ? strdup(v) : NULL;
    }
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    snprintf(fx->tmp, sizeof fx->tmp, "%s/clf_cache_test.XXXXXX", base);
    if (!mkdtemp(fx->tmp))
        return -1;
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    rm_rf(fx->tmp);
    for (size_t i = 0; i < N_ENV; i++) {
        if (fx->saved[i])
            setenv(env_names[i], fx->saved[i], 1);
        else
            unsetenv(env_names[i]);
        free(fx->saved[i]);
    }
    free(fx);
    return 0;
}

/* ---- environment resolution ---- */

static void test_init_disable_values(void **state)
{
    (void)state;
    static const char *const off[] = {"1", "true", "TRUE", "True", "yes", "YES", "on", "On"};
    static const char *const on[] = {"0", "false", "no", "off", "", "2", "enable", " 1"};
    clf_cache c;
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
        clear_env();
        setenv("MIOPEN_CUSTOM_CACHE_DIR", "/some/dir", 1);
        setenv("MIOPEN_DISABLE_CACHE", off[i], 1);
        clf_cache_init(&c, VERSION);
        if (c.enabled)
            fail_msg("MIOPEN_DISABLE_CACHE=%s should disable", off[i]);
        assert_string_equal(c.dir, "");
    }
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++) {
        clear_env();
        setenv("MIOPEN_CUSTOM_CACHE_DIR", "/some/dir", 1);
        setenv("MIOPEN_DISABLE_CACHE", on[i], 1);
        clf_cache_init(&c, VERSION);
        if (!c.enabled)
            fail_msg("MIOPEN_DISABLE_CACHE='%s' should not disable", on[i]);
        assert_string_equal(c.dir, "/some/dir");
    }
}

static void test_init_custom_dir(void **state)
{
    (void)state;
    clf_cache c;
    clear_env();
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    setenv("HOME", "/home/u", 1);
    setenv("MIOPEN_CUSTOM_CACHE_DIR", "/custom/cache", 1);
    clf_cache_init(&c, VERSION);
    assert_int_equal(c.enabled, 1);
    assert_string_equal(c.dir, "/custom/cache"); /* used as-is, no version suffix */

    setenv("MIOPEN_CUSTOM_CACHE_DIR", "/custom/cache//", 1);
    clf_cache_init(&c, VERSION);
    assert_string_equal(c.dir, "/custom/cache");

    setenv("MIOPEN_CUSTOM_CACHE_DIR", "", 1); /* empty = unset */
    clf_cache_init(&c, VERSION);
    assert_string_equal(c.dir, "/xdg/clfuse/" VERSION);
}

static void test_init_xdg_home_tmp(void **state)
{
    (void)state;
    clf_cache c;
    clear_env();
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    setenv("HOME", "/home/u", 1);
    clf_cache_init(&c, VERSION);
    assert_int_equal(c.enabled, 1);
    assert_string_equal(c.dir, "/xdg/clfuse/" VERSION);

    setenv("XDG_CACHE_HOME", "relative/path", 1); /* invalid per XDG spec: ignored */
    clf_cache_init(&c, VERSION);
    assert_string_equal(c.dir, "/home/u/.cache/clfuse/" VERSION);

    unsetenv("XDG_CACHE_HOME");
    clf_cache_init(&c, "9.9.9");
    assert_string_equal(c.dir, "/home/u/.cache/clfuse/9.9.9");

    unsetenv("HOME");
    clf_cache_init(&c, VERSION);
    char want[128];
    snprintf(want, sizeof want, "/tmp/clfuse-cache-%lu/" VERSION, (unsigned long)getuid());
    assert_int_equal(c.enabled, 1);
    assert_string_equal(c.dir, want);

    clf_cache_init(&c, NULL);
    snprintf(want, sizeof want, "/tmp/clfuse-cache-%lu/unknown", (unsigned long)getuid());
    assert_string_equal(c.dir, want);
}

static void test_init_too_long_disables(void **state)
{
    (void)state;
    char *longdir = malloc(5001);
    assert_non_null(longdir);
    longdir[0] = '/';
    memset(longdir + 1, 'x', 4999);
    longdir[5000] = '\0';
    clear_env();
    setenv("MIOPEN_CUSTOM_CACHE_DIR", longdir, 1);
    clf_cache c;
    clf_cache_init(&c, VERSION);
    assert_int_equal(c.enabled, 0);
    assert_string_equal(c.dir, "");
    free(longdir);
}

static void test_init_does_not_create(void **state)
{
    fixture *fx = *state;
    clf_cache c;
    cache_at(&c, fx, "not/yet");
    char p[512];
    snprintf(p, sizeof p, "%s/not", fx->tmp);
    assert_false(exists(p));
}

/* ---- store / load ---- */

static void test_round_trip(void **state)
{
    fixture *fx = *state;
    clf_cache c;
    cache_at(&c, fx, "deep/er/dir"); /* exercises mkdir -p */

    unsigned char bin[3000];
    fill_payload(bin, sizeof bin, 1);
    store_ok(&c, KEY_A, bin, sizeof bin);

    char path[CLF_CACHE_PATH_MAX];
    clf_cache_path(&c, KEY_A, strlen(KEY_A), path, sizeof path);
    assert_true(exists(path));
    const char *name = strrchr(path, '/') + 1;
    assert_int_equal(strlen(name), 32 + strlen(".clbin"));
    assert_string_equal(name + 32, ".clbin");
    assert_int_equal(strspn(name, "0123456789abcdef"), 32);
    assert_int_equal(count_entries(c.dir), 1); /* no temp file left behind */

    unsigned char *out = NULL;
    size_t out_len = 0;
    char why[512] = "junk";
    assert_int_equal(clf_cache_load(&c, KEY_A, strlen(KEY_A), &out, &out_len, why, sizeof why), 1);
    assert_string_equal(why, "");
    assert_int_equal(out_len, sizeof bin);
    assert_memory_equal(out, bin, sizeof bin);
    free(out);

    /* Overwrite with a new binary: the new one wins, still one file. */
    unsigned char bin2[17];
    fill_payload(bin2, sizeof bin2, 2);
    store_ok(&c, KEY_A, bin2, sizeof bin2);
    assert_int_equal(count_entries(c.dir), 1);
    assert_int_equal(clf_cache_load(&c, KEY_A, strlen(KEY_A), &out, &out_len, why, sizeof why), 1);
    assert_int_equal(out_len, sizeof bin2);
    assert_memory_equal(out, bin2, sizeof bin2);
    free(out);

    /* why may be NULL. */
    assert_int_equal(clf_cache_load(&c, KEY_A, strlen(KEY_A), &out, &out_len, NULL, 0), 1);
    free(out);
}

static void test_header_layout(void **state)
{
    fixture *fx = *state;
    clf_cache c;
    cache_at(&c, fx, NULL);
    unsigned char bin[100];
    fill_payload(bin, sizeof bin, 3);
    store_ok(&c, KEY_A, bin, sizeof bin);

    char path[CLF_CACHE_PATH_MAX];
    clf_cache_path(&c, KEY_A, strlen(KEY_A), path, sizeof path);
    size_t len;
    unsigned char *f = read_file(path, &len);
    assert_int_equal(len, CLF_CACHE_HEADER_SIZE + sizeof bin);
    assert_memory_equal(f, "CLFUSEBN", 8);
    assert_int_equal(f[8], CLF_CACHE_FORMAT_VERSION);
    assert_int_equal(f[9] | f[10] | f[11], 0);
    /* the 16 hash bytes are the file name, in hex */
    const char *name = strrchr(path, '/') + 1;
    for (int i = 0; i < 16; i++) {
        char hx[3];
        snprintf(hx, sizeof hx, "%02x", f[12 + i]);
        assert_memory_equal(hx, name + 2 * i, 2);
    }
    assert_int_equal(get_u64(f + 28), strlen(KEY_A));
    assert_int_equal(get_u64(f + 36), sizeof bin);
    assert_memory_equal(f + CLF_CACHE_HEADER_SIZE, bin, sizeof bin);
    free(f);
}

static void test_different_key_misses(void **state)
{
    fixture *fx = *state;
    clf_cache c;
    cache_at(&c, fx, NULL);
    unsigned char bin[64];
    fill_payload(bin, sizeof bin, 4);
    store_ok(&c, KEY_A, bin, sizeof bin);

    unsigned char *out = (unsigned char *)"sentinel";
    size_t out_len = 99;
    char why[512] = "junk";
    assert_int_equal(clf_cache_load(&c, KEY_B, strlen(KEY_B), &out, &out_len, why, sizeof why), 0);
    assert_null(out);
    assert_int_equal(out_len, 0);
    assert_string_equal(why, ""); /* plain miss */
    /* a prefix of the key is a different key too */
    assert_int_equal(clf_cache_load(&c, KEY_A, strlen(KEY_A) - 1, &out, &out_len, why, sizeof why),
                     0);
    assert_string_equal(why, "");

    char pa[CLF_CACHE_PATH_MAX], pb[CLF_CACHE_PATH_MAX];
    clf_cache_path(&c, KEY_A, strlen(KEY_A), pa, sizeof pa);
    clf_cache_path(&c, KEY_B, strlen(KEY_B), pb, sizeof pb);
    assert_string_not_equal(pa, pb);
    assert_true(exists(pa));
}

/* ---- corrupted files ---- */

enum corruption {
    TRUNC_HEADER,
    EMPTY_FILE,
    TRUNC_PAYLOAD,
    FLIP_PAYLOAD,
    WRONG_MAGIC,
    FOREIGN_VERSION,
    OTHER_KEY,
    KEY_LEN_MISMATCH,
    TRAILING_BYTES,
    ABSURD_LENGTH,
    ZERO_LENGTH
};

static void corrupt_and_check(fixture *fx, enum corruption kind, const char *expect)
{
    clf_cache c;
    cache_at(&c, fx, "corrupt");
    unsigned char bin[1000];
    fill_payload(bin, sizeof bin, 5);
    store_ok(&c, KEY_A, bin, sizeof bin);

    char path[CLF_CACHE_PATH_MAX];
    clf_cache_path(&c, KEY_A, strlen(KEY_A), path, sizeof path);
    size_t len;
    unsigned char *f = read_file(path, &len);
    switch (kind) {
    case TRUNC_HEADER: len = 20; break;
    case EMPTY_FILE: len = 0; break;
    case TRUNC_PAYLOAD: len = CLF_CACHE_HEADER_SIZE + sizeof bin / 2; break;
    case FLIP_PAYLOAD: f[CLF_CACHE_HEADER_SIZE + 500] ^= 0x01; break;
    case WRONG_MAGIC: f[0] = 'X'; break;
    case FOREIGN_VERSION: f[8] = 0; break; /* an older format (newer: test_newer_version) */
    case KEY_LEN_MISMATCH: put_u64(f + 28, strlen(KEY_A) + 1); break;
    case ABSURD_LENGTH: put_u64(f + 36, UINT64_MAX / 2); break;
    case ZERO_LENGTH: put_u64(f + 36, 0); break;
    case TRAILING_BYTES: {
        unsigned char *g = realloc(f, len + 7);
        assert_non_null(g);
        f = g;
        memset(f + len, 0xAB, 7);
        len += 7;
        break;
    }
    case OTHER_KEY: {
        /* A valid entry of KEY_B renamed onto KEY_A's name. */
        store_ok(&c, KEY_B, bin, sizeof bin);
        char pb[CLF_CACHE_PATH_MAX];
        clf_cache_path(&c, KEY_B, strlen(KEY_B), pb, sizeof pb);
        assert_int_equal(rename(pb, path), 0);
        free(f);
        f = NULL;
        break;
    }
    }
    if (f)
        write_file(path, f, len);
    free(f);

    unsigned char *out = NULL;
    size_t out_len = 0;
    char why[512] = "";
    assert_int_equal(clf_cache_load(&c, KEY_A, strlen(KEY_A), &out, &out_len, why, sizeof why), 0);
    assert_null(out);
    assert_int_equal(out_len, 0);
    if (why[0] == '\0')
        fail_msg("no reason for corruption kind %d", (int)kind);
    if (!strstr(why, expect))
        fail_msg("reason '%s' lacks '%s'", why, expect);
    assert_non_null(strstr(why, path));
    if (exists(path))
        fail_msg("bad file not removed (kind %d): %s", (int)kind, why);

    /* The next store rebuilds it and loads hit again. */
    store_ok(&c, KEY_A, bin, sizeof bin);
    assert_int_equal(clf_cache_load(&c, KEY_A, strlen(KEY_A), &out, &out_len, why, sizeof why), 1);
    assert_int_equal(out_len, sizeof bin);
    free(out);
    rm_rf(c.dir);
}

static void test_corrupt_truncated_header(void **s)
{
    corrupt_and_check(*s, TRUNC_HEADER, "truncated header");
}
static void test_corrupt_empty_file(void **s)
{
    corrupt_and_check(*s, EMPTY_FILE, "truncated header");
}
static void test_corrupt_truncated_payload(void **s)
{
    corrupt_and_check(*s, TRUNC_PAYLOAD, "truncated payload");
}
static void test_corrupt_flipped_byte(void **s)
{
    corrupt_and_check(*s, FLIP_PAYLOAD, "checksum");
}
static void test_corrupt_wrong_magic(void **s)
{
    corrupt_and_check(*s, WRONG_MAGIC, "magic");
}
static void test_corrupt_foreign_version(void **s)
{
    corrupt_and_check(*s, FOREIGN_VERSION, "version");
}
static void test_corrupt_other_key(void **s)
{
    corrupt_and_check(*s, OTHER_KEY, "key hash mismatch");
}
static void test_corrupt_key_length(void **s)
{
    corrupt_and_check(*s, KEY_LEN_MISMATCH, "key length mismatch");
}
static void test_corrupt_trailing(void **s)
{
    corrupt_and_check(*s, TRAILING_BYTES, "trailing");
}
static void test_corrupt_absurd_length(void **s)
{
    corrupt_and_check(*s, ABSURD_LENGTH, "payload length");
}
static void test_corrupt_zero_length(void **s)
{
    corrupt_and_check(*s, ZERO_LENGTH, "payload length");
}

/* Arbitrary content never crashes a load: garbage of many lengths, and a valid
 * header prefix followed by random fields. */
static void test_garbage_never_crashes(void **state)
{
    fixture *fx = *state;
    clf_cache c;
    cache_at(&c, fx, NULL);
    unsigned char good[200];
    fill_payload(good, sizeof good, 6);
    store_ok(&c, KEY_A, good, sizeof good);
    char path[CLF_CACHE_PATH_MAX];
    clf_cache_path(&c, KEY_A, strlen(KEY_A), path, sizeof path);
    size_t glen;
    unsigned char *valid = read_file(path, &glen);

    uint32_t rng = 12345;
    unsigned char buf[400];
    for (int iter = 0; iter < 400; iter++) {
        size_t len = (size_t)(iter % 97) * 4 % sizeof buf;
        for (size_t i = 0; i < len; i++) {
            rng = rng * 1664525u + 1013904223u;
            buf[i] = (unsigned char)(rng >> 24);
        }
        if (iter % 2 && len >= 12) { /* keep magic + version so deeper checks run */
            size_t keep = 12 + (size_t)(iter % 5) * 10;
            if (keep > len)
                keep = len;
            memcpy(buf, valid, keep);
        }
        write_file(path, buf, len);
        unsigned char *out = NULL;
        size_t out_len = 0;
        char why[512];
        assert_int_equal(clf_cache_load(&c, KEY_A, strlen(KEY_A), &out, &out_len, why, sizeof why),
                         0);
        assert_null(out);
        assert_true(why[0] != '\0');
        assert_false(exists(path));
    }
    free(valid);
}

static void test_non_regular_entry(void **state)
{
    fixture *fx = *state;
    clf_cache c;
    cache_at(&c, fx, NULL);
    char path[CLF_CACHE_PATH_MAX];
    clf_cache_path(&c, KEY_A, strlen(KEY_A), path, sizeof path);
    assert_int_equal(mkdir(path, 0700), 0);
    unsigned char *out = NULL;
    size_t out_len = 0;
    char why[512];
    assert_int_equal(clf_cache_load(&c, KEY_A, strlen(KEY_A), &out, &out_len, why, sizeof why), 0);
    assert_non_null(strstr(why, "not a regular file"));
    assert_true(exists(path)); /* left alone */
}

/* A FIFO at the entry's path: the load returns at once (a blocking open would wait for a
 * writer forever), reports it and leaves it; the next store replaces it. The alarm turns a
 * hang into a failure. */
static void test_fifo_entry(void **state)
{
    fixture *fx = *state;
    clf_cache c;
    cache_at(&c, fx, NULL);
    char path[CLF_CACHE_PATH_MAX];
    clf_cache_path(&c, KEY_A, strlen(KEY_A), path, sizeof path);
    assert_int_equal(mkfifo(path, 0600), 0);
    alarm(20);
    unsigned char *out = NULL;
    size_t out_len = 0;
    char why[512];
    assert_int_equal(clf_cache_load(&c, KEY_A, strlen(KEY_A), &out, &out_len, why, sizeof why), 0);
    alarm(0);
    assert_null(out);
    assert_non_null(strstr(why, "not a regular file (a FIFO)"));
    assert_non_null(strstr(why, path));
    unsigned char bin[64];
    fill_payload(bin, sizeof bin, 3);
    store_ok(&c, KEY_A, bin, sizeof bin);
    assert_int_equal(clf_cache_load(&c, KEY_A, strlen(KEY_A), &out, &out_len, why, sizeof why), 1);
    assert_int_equal(out_len, sizeof bin);
    assert_memory_equal(out, bin, sizeof bin);
    free(out);
}

/* An entry written by a newer clfuse (a higher format version) in a shared directory is a
 * good entry for that build: loads report it and leave it, stores do not replace it. */
static void test_newer_version(void **state)
{
    fixture *fx = *state;
    clf_cache c;
    cache_at(&c, fx, NULL);
    unsigned char bin[100];
    fill_payload(bin, sizeof bin, 9);
    store_ok(&c, KEY_A, bin, sizeof bin);
    char path[CLF_CACHE_PATH_MAX];
    clf_cache_path(&c, KEY_A, strlen(KEY_A), path, sizeof path);
    size_t len;
    unsigned char *f = read_file(path, &len);
    f[8] = (unsigned char)(CLF_CACHE_FORMAT_VERSION + 1);
    write_file(path, f, len);
    unsigned char *out = NULL;
    size_t out_len = 0;
    char why[512], err[512];
    assert_int_equal(clf_cache_load(&c, KEY_A, strlen(KEY_A), &out, &out_len, why, sizeof why), 0);
    assert_null(out);
    assert_non_null(strstr(why, "newer clfuse"));
    assert_true(exists(path));
    assert_int_equal(clf_cache_store(&c, KEY_A, strlen(KEY_A), bin, sizeof bin, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "newer clfuse"));
    size_t len2;
    unsigned char *g = read_file(path, &len2);
    assert_int_equal(len2, len);
    assert_memory_equal(g, f, len);              /* untouched */
    assert_int_equal(count_entries(fx->tmp), 1); /* no temp file left behind */
    free(g);
    free(f);
}

/* ---- store failures / disabled ---- */

static void test_store_unwritable(void **state)
{
    fixture *fx = *state;
    char file[512];
    snprintf(file, sizeof file, "%s/plainfile", fx->tmp);
    write_file(file, (const unsigned char *)"x", 1);

    unsigned char bin[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    char err[1024];
    clf_cache c;

    cache_at(&c, fx, "plainfile/sub"); /* a dir under a regular file */
    assert_int_equal(clf_cache_store(&c, KEY_A, strlen(KEY_A), bin, sizeof bin, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, file));
    assert_non_null(strstr(err, strerror(ENOTDIR)));

    cache_at(&c, fx, "plainfile"); /* the dir itself is a regular file */
    assert_int_equal(clf_cache_store(&c, KEY_A, strlen(KEY_A), bin, sizeof bin, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, file));
    assert_non_null(strstr(err, strerror(ENOTDIR)));

    /* err may be NULL */
    assert_int_equal(clf_cache_store(&c, KEY_A, strlen(KEY_A), bin, sizeof bin, NULL, 0), -1);

    /* a plain miss, not a crash, when loading from there */
    unsigned char *out = NULL;
    size_t out_len;
    char why[512];
    assert_int_equal(clf_cache_load(&c, KEY_A, strlen(KEY_A), &out, &out_len, why, sizeof why), 0);
    assert_null(out);
}

static void test_store_refuses_empty(void **state)
{
    fixture *fx = *state;
    clf_cache c;
    cache_at(&c, fx, "empty");
    char err[512];
    unsigned char b = 0;
    assert_int_equal(clf_cache_store(&c, KEY_A, strlen(KEY_A), &b, 0, err, sizeof err), -1);
    assert_true(err[0] != '\0');
    assert_int_equal(clf_cache_store(&c, KEY_A, strlen(KEY_A), NULL, 5, err, sizeof err), -1);
}

static void test_disabled_never_writes(void **state)
{
    fixture *fx = *state;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/disabled", fx->tmp);
    clear_env();
    setenv("MIOPEN_CUSTOM_CACHE_DIR", dir, 1);
    setenv("MIOPEN_DISABLE_CACHE", "1", 1);
    clf_cache c;
    clf_cache_init(&c, VERSION);
    assert_int_equal(c.enabled, 0);

    unsigned char bin[32];
    fill_payload(bin, sizeof bin, 7);
    char err[512] = "junk";
    assert_int_equal(clf_cache_store(&c, KEY_A, strlen(KEY_A), bin, sizeof bin, err, sizeof err),
                     0);
    assert_string_equal(err, "");
    assert_false(exists(dir));
    assert_int_equal(count_entries(fx->tmp), 0);

    unsigned char *out = NULL;
    size_t out_len = 1;
    char why[512] = "junk";
    assert_int_equal(clf_cache_load(&c, KEY_A, strlen(KEY_A), &out, &out_len, why, sizeof why), 0);
    assert_null(out);
    assert_string_equal(why, "");

    char path[64] = "junk";
    clf_cache_path(&c, KEY_A, strlen(KEY_A), path, sizeof path);
    assert_string_equal(path, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_init_disable_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_init_custom_dir, setup, teardown),
        cmocka_unit_test_setup_teardown(test_init_xdg_home_tmp, setup, teardown),
        cmocka_unit_test_setup_teardown(test_init_too_long_disables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_init_does_not_create, setup, teardown),
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_header_layout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_different_key_misses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_truncated_header, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_empty_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_truncated_payload, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_flipped_byte, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_wrong_magic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_foreign_version, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_other_key, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_key_length, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_trailing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_absurd_length, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_zero_length, setup, teardown),
        cmocka_unit_test_setup_teardown(test_garbage_never_crashes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_non_regular_entry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fifo_entry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_newer_version, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_unwritable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_refuses_empty, setup, teardown),
        cmocka_unit_test_setup_teardown(test_disabled_never_writes, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
