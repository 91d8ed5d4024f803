/*
** Unit tests for lib/finddb: layering, ranking, corruption handling, locking and
** concurrent writers. Pure CPU; every test works in its own mkdtemp directory.
**
** Over 600 lines: one program for one layer, its fixtures (a device identity, entries, a
** user file path) shared by every test; a split by concern (format and layering, stores
** and locking, the edit API) would first move those fixtures to test/common.
*/
#define _DEFAULT_SOURCE
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "finddb/finddb.h"
#include "finddb/finddb_edit.h"
#include "common/test_common.h"

/* ---- helpers ------------------------------------------------------------ */

static clf_device_identity dev_h100(void)
{
    clf_device_identity d;
    memset(&d, 0, sizeof d);
    snprintf(d.vendor, sizeof d.vendor, "NVIDIA Corporation");
    snprintf(d.name, sizeof d.name, "NVIDIA H100 80GB HBM3");
    snprintf(d.driver, sizeof d.driver, "580.159.04");
    d.compute_units = 132;
    return d;
}

static char *make_tmpdir(void)
{
    char *t = strdup("/tmp/clf_finddb_test_XXXXXX");
    assert_non_null(t);
    assert_non_null(mkdtemp(t));
    return t;
}

static void write_str(const char *path, const char *s)
{
    write_file(path, s, strlen(s));
}

static char *read_all(const char *path)
{
    char *buf;
    size_t len;
    char err[256];
    assert_int_equal(clf_finddb_read_file(path, 1u << 26, &buf, &len, NULL, err, sizeof err), 0);
    return buf;
}

static clf_finddb_entry entry(const char *solver, double t, uint64_t ws)
{
    clf_finddb_entry e;
    memset(&e, 0, sizeof e);
    snprintf(e.solver, sizeof e.solver, "%s", solver);
    snprintf(e.config, sizeof e.config, "cfg-%s", solver);
    e.time_ms = t;
    e.workspace = ws;
    snprintf(e.algorithm, sizeof e.algorithm, "miopenConvolutionFwdAlgoDirect");
    snprintf(e.provenance, sizeof e.provenance, "find");
    return e;
}

static void user_file_path(const char *user_dir, char *out, size_t cap)
{
    clf_device_identity d = dev_h100();
    char base[256];
    clf_finddb_basename(&d, base, sizeof base);
    snprintf(out, cap, "%s/%s.ufdb.json", user_dir, base);
}

static int count_with_prefix(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        if (strncmp(de->d_name, prefix, strlen(prefix)) == 0)
            n++;
    closedir(d);
    return n;
}

#define DEVICE_H100                                                                                \
    "\"device\": {\"vendor\": \"NVIDIA Corporation\", \"name\": \"NVIDIA H100 80GB HBM3\", "       \
    "\"driver\": \"580.159.04\", \"compute_units\": 132}"

/* ---- tests -------------------------------------------------------------- */

static void test_basename(void **state)
{
    (void)state;
    clf_device_identity d = dev_h100();
    char b[256];
    clf_finddb_basename(&d, b, sizeof b);
    assert_string_equal(b, "NVIDIA_H100_80GB_HBM3_132cu_580.159.04");

    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "  gfx90a:sramecc+:xnack-/..//x ");
    snprintf(d.driver, sizeof d.driver, "3.0 (HSA1.1,LC)");
    d.compute_units = 104;
    clf_finddb_basename(&d, b, sizeof b);
    assert_string_equal(b, "gfx90a_sramecc_xnack-_.._x_104cu_3.0_HSA1.1_LC");
    for (const char *p = b; *p; p++)
        assert_true(
            strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-", *p));

    memset(&d, 0, sizeof d);
    clf_finddb_basename(&d, b, sizeof b);
    assert_string_equal(b, "unknown_0cu");

    snprintf(d.name, sizeof d.name, ".hidden");
    clf_finddb_basename(&d, b, sizeof b);
    assert_int_equal(b[0], '_');

    memset(d.name, 'A', sizeof d.name - 1); /* long name is capped */
    d.name[sizeof d.name - 1] = '\0';
    clf_finddb_basename(&d, b, sizeof b);
    assert_true(strlen(b) < 100);

    char small[8];
    clf_finddb_basename(&d, small, sizeof small);
    assert_int_equal(strlen(small), 7);
}

static void test_default_user_dir(void **state)
{
    (void)state;
    char *save_u = getenv("MIOPEN_USER_DB_PATH") ? strdup(getenv("MIOPEN_USER_DB_PATH")) : NULL;
    char *save_x = getenv("XDG_CONFIG_HOME") ? strdup(getenv("XDG_CONFIG_HOME")) : NULL;
    char *save_h = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    char out[512];

    setenv("MIOPEN_USER_DB_PATH", "/x/db", 1);
    setenv("XDG_CONFIG_HOME", "/xdg", 1);
    setenv("HOME", "/home/u", 1);
    clf_finddb_default_user_dir(out, sizeof out);
    assert_string_equal(out, "/x/db");
    unsetenv("MIOPEN_USER_DB_PATH");
    clf_finddb_default_user_dir(out, sizeof out);
    assert_string_equal(out, "/xdg/clfuse");
    setenv("XDG_CONFIG_HOME", "relative", 1); /* XDG says: ignore relative paths */
    clf_finddb_default_user_dir(out, sizeof out);
    assert_string_equal(out, "/home/u/.config/clfuse");
    unsetenv("XDG_CONFIG_HOME");
    unsetenv("HOME");
    clf_finddb_default_user_dir(out, sizeof out);
    char want[64];
    snprintf(want, sizeof want, "/tmp/clfuse-%lu", (unsigned long)getuid());
    assert_string_equal(out, want);

    if (save_u)
        setenv("MIOPEN_USER_DB_PATH", save_u, 1);
    if (save_x)
        setenv("XDG_CONFIG_HOME", save_x, 1);
    if (save_h)
        setenv("HOME", save_h, 1);
    free(save_u);
    free(save_x);
    free(save_h);
}

static void test_round_trip(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char udir[512], warn[4096], err[512];
    snprintf(udir, sizeof udir, "%s/a/b/c", tmp); /* created by store (mkdir -p) */
    clf_device_identity d = dev_h100();

    clf_finddb *db = clf_finddb_open(&d, NULL, udir, warn, sizeof warn);
    assert_non_null(db);
    assert_string_equal(warn, "");
    clf_finddb_entry in[3] = {entry("ConvDirect", 0.5, 0), entry("ConvWinograd", 0.12, 4096),
                              entry("ConvGemm", -1.0, (uint64_t)5e9)};
    snprintf(in[0].config, sizeof in[0].config, "quoted \"x\" \\ \n tab\t");
    const char *key = "1024-14-14-1x1-512-14-14-32-0x0-1x1-1x1-0-NCHW-FP32-F";
    assert_int_equal(clf_finddb_store(db, key, in, 3, err, sizeof err), 0);

    clf_finddb_entry out[8];
    const char *where = NULL;
    assert_int_equal(clf_finddb_lookup(db, key, out, 8, &where), 3);
    assert_string_equal(where, "user");
    assert_string_equal(out[0].solver, "ConvWinograd");
    clf_finddb_close(db);

    db = clf_finddb_open(&d, NULL, udir, warn, sizeof warn);
    assert_non_null(db);
    assert_string_equal(warn, "");
    memset(out, 0, sizeof out);
    assert_int_equal(clf_finddb_lookup(db, key, out, 8, &where), 3);
    assert_string_equal(where, "user");
    assert_int_equal(clf_finddb_entry_count(db, key), 3);
    assert_memory_equal(&out[0], &in[1], sizeof in[1]);
    assert_memory_equal(&out[1], &in[0], sizeof in[0]);
    assert_memory_equal(&out[2], &in[2], sizeof in[2]);
    assert_int_equal(out[2].workspace, 5000000000ull);
    /* max smaller than the record */
    assert_int_equal(clf_finddb_lookup(db, key, out, 1, &where), 1);
    assert_int_equal(clf_finddb_lookup(db, "nope", out, 8, &where), 0);
    assert_null(where);
    assert_int_equal(clf_finddb_key_count(db), 1);
    assert_string_equal(clf_finddb_key_at(db, 0), key);
    assert_null(clf_finddb_key_at(db, 1));

    char upath[1024];
    user_file_path(udir, upath, sizeof upath);
    assert_string_equal(clf_finddb_user_path(db), upath);
    assert_int_equal(clf_finddb_check_file(upath, err, sizeof err), 0);
    clf_finddb_close(db);
    rm_rf(tmp);
    free(tmp);
}

static void test_workspace_limits(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char err[512], warn[1024];
    clf_device_identity d = dev_h100();
    clf_finddb *db = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
    assert_non_null(db);
    clf_finddb_entry e = entry("Big", 1.0, CLF_FINDDB_MAX_WORKSPACE);
    assert_int_equal(clf_finddb_store(db, "k", &e, 1, err, sizeof err), 0);
    clf_finddb_close(db);
    db = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
    clf_finddb_entry out;
    assert_int_equal(clf_finddb_lookup(db, "k", &out, 1, NULL), 1);
    assert_true(out.workspace == CLF_FINDDB_MAX_WORKSPACE);
    clf_finddb_close(db);
    rm_rf(tmp);
    free(tmp);
}

static void test_user_overrides_system(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char sdir[512], udir[512], path[1024], warn[4096], err[512];
    snprintf(sdir, sizeof sdir, "%s/sys", tmp);
    snprintf(udir, sizeof udir, "%s/user", tmp);
    mkdir(sdir, 0700);
    snprintf(path, sizeof path, "%s/h100.json", sdir);
    write_str(
        path,
        "{\"format\": \"clfuse-finddb\", \"version\": 1, " DEVICE_H100 ", \"records\": {"
        "\"A\": [{\"solver\": \"S1\", \"time_ms\": 2.0, \"workspace\": 0, \"algorithm\": \"a\"},"
        "        {\"solver\": \"S2\", \"time_ms\": 1.0, \"workspace\": 0, \"algorithm\": \"a\"}],"
        "\"B\": [{\"solver\": \"S3\", \"time_ms\": 1.0, \"workspace\": 0, \"algorithm\": \"a\","
        "        \"provenance\": \"system\", \"extra\": [1, 2]}]}}");
    /* A later system file with the same key: the first file (by name) wins. */
    snprintf(path, sizeof path, "%s/z_more.json", sdir);
    write_str(path,
              "{\"format\": \"clfuse-finddb\", \"version\": 1, " DEVICE_H100 ", \"records\": {"
              "\"B\": [{\"solver\": \"Later\", \"time_ms\": 0.1, \"workspace\": 0, \"algorithm\": "
              "\"a\"}],"
              "\"D\": [{\"solver\": \"S4\", \"time_ms\": 0.1, \"workspace\": 0, \"algorithm\": "
              "\"a\"}]}}");

    clf_device_identity d = dev_h100();
    clf_finddb *db = clf_finddb_open(&d, sdir, udir, warn, sizeof warn);
    assert_non_null(db);
    assert_string_equal(warn, "");
    clf_finddb_entry out[4];
    const char *where;
    assert_int_equal(clf_finddb_lookup(db, "A", out, 4, &where), 2);
    assert_string_equal(where, "system");
    assert_string_equal(out[0].solver, "S2");
    assert_int_equal(clf_finddb_lookup(db, "B", out, 4, &where), 1);
    assert_string_equal(out[0].solver, "S3");
    assert_string_equal(out[0].provenance, "system");
    assert_string_equal(out[0].config, "");

    clf_finddb_entry u = entry("UserSolver", 5.0, 0);
    assert_int_equal(clf_finddb_store(db, "A", &u, 1, err, sizeof err), 0);
    assert_int_equal(clf_finddb_store(db, "C", &u, 1, err, sizeof err), 0);
    /* user record replaces (not merges with) the system one, even if slower */
    assert_int_equal(clf_finddb_lookup(db, "A", out, 4, &where), 1);
    assert_string_equal(where, "user");
    assert_string_equal(out[0].solver, "UserSolver");
    clf_finddb_close(db);

    db = clf_finddb_open(&d, sdir, udir, warn, sizeof warn);
    assert_int_equal(clf_finddb_lookup(db, "A", out, 4, &where), 1);
    assert_string_equal(where, "user");
    assert_int_equal(clf_finddb_lookup(db, "B", out, 4, &where), 1);
    assert_string_equal(where, "system");
    assert_int_equal(clf_finddb_key_count(db), 4);
    assert_string_equal(clf_finddb_key_at(db, 0), "A");
    assert_string_equal(clf_finddb_key_at(db, 1), "B");
    assert_string_equal(clf_finddb_key_at(db, 2), "C");
    assert_string_equal(clf_finddb_key_at(db, 3), "D");
    /* removing the user record uncovers the system record again */
    assert_int_equal(clf_finddb_remove(db, "A", err, sizeof err), 1);
    assert_int_equal(clf_finddb_lookup(db, "A", out, 4, &where), 2);
    assert_string_equal(where, "system");
    /* system records cannot be removed through the user db */
    assert_int_equal(clf_finddb_remove(db, "B", err, sizeof err), 0);
    assert_int_equal(clf_finddb_lookup(db, "B", out, 4, &where), 1);
    clf_finddb_close(db);
    rm_rf(tmp);
    free(tmp);
}

static void check_order(const clf_finddb_entry *out, int n)
{
    static const double want[] = {0.0, 0.1, 0.1, 0.5, -0.2, -1.0, -3.0};
    assert_int_equal(n, 7);
    for (int i = 0; i < n; i++)
        assert_true(out[i].time_ms == want[i]);
    /* equal times keep their original order (stable) */
    assert_string_equal(out[1].solver, "first01");
    assert_string_equal(out[2].solver, "second01");
}

static void test_sort_order(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char sdir[512], path[1024], warn[4096], err[512];
    snprintf(sdir, sizeof sdir, "%s/sys", tmp);
    mkdir(sdir, 0700);
    snprintf(path, sizeof path, "%s/x.json", sdir);
    write_str(
        path,
        "{\"format\": \"clfuse-finddb\", \"version\": 1, " DEVICE_H100 ", \"records\": {\"K\": ["
        "{\"solver\": \"m1\", \"time_ms\": -1, \"workspace\": 0, \"algorithm\": \"a\"},"
        "{\"solver\": \"p5\", \"time_ms\": 0.5, \"workspace\": 0, \"algorithm\": \"a\"},"
        "{\"solver\": \"first01\", \"time_ms\": 0.1, \"workspace\": 0, \"algorithm\": \"a\"},"
        "{\"solver\": \"m02\", \"time_ms\": -0.2, \"workspace\": 0, \"algorithm\": \"a\"},"
        "{\"solver\": \"second01\", \"time_ms\": 0.1, \"workspace\": 0, \"algorithm\": \"a\"},"
        "{\"solver\": \"m3\", \"time_ms\": -3, \"workspace\": 0, \"algorithm\": \"a\"},"
        "{\"solver\": \"z\", \"time_ms\": 0, \"workspace\": 0, \"algorithm\": \"a\"}]}}");
    clf_device_identity d = dev_h100();
    clf_finddb *db = clf_finddb_open(&d, sdir, tmp, warn, sizeof warn);
    assert_non_null(db);
    assert_string_equal(warn, "");
    clf_finddb_entry out[10];
    check_order(out, clf_finddb_lookup(db, "K", out, 10, NULL));

    /* the same through store, in a scrambled order */
    clf_finddb_entry in[7] = {
        entry("m3", -3, 0),    entry("first01", 0.1, 0), entry("m1", -1, 0),       entry("z", 0, 0),
        entry("m02", -0.2, 0), entry("p5", 0.5, 0),      entry("second01", 0.1, 0)};
    assert_int_equal(clf_finddb_store(db, "K2", in, 7, err, sizeof err), 0);
    check_order(out, clf_finddb_lookup(db, "K2", out, 10, NULL));
    clf_finddb_close(db);
    db = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
    check_order(out, clf_finddb_lookup(db, "K2", out, 10, NULL));
    clf_finddb_close(db);
    rm_rf(tmp);
    free(tmp);
}

static void test_other_devices_ignored(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char path[1024], warn[8192];
    static const char *rec =
        "\"records\": {\"K\": [{\"solver\": \"%s\", \"time_ms\": 1, \"workspace\": 0, "
        "\"algorithm\": \"a\"}]}}";
    struct {
        const char *file, *device, *solver;
    } files[] = {
        {"a_other_driver.json",
         "{\"vendor\": \"NVIDIA Corporation\", \"name\": \"NVIDIA H100 80GB HBM3\", "
         "\"driver\": \"535.0\", \"compute_units\": 132}",
         "wrong_driver"},
        {"b_other_cu.json",
         "{\"vendor\": \"NVIDIA Corporation\", \"name\": \"NVIDIA H100 80GB HBM3\", "
         "\"driver\": \"580.159.04\", \"compute_units\": 114}",
         "wrong_cu"},
        {"c_other_name.json",
         "{\"vendor\": \"NVIDIA Corporation\", \"name\": \"NVIDIA A100\", "
         "\"driver\": \"580.159.04\", \"compute_units\": 132}",
         "wrong_name"},
        {"d_other_vendor.json",
         "{\"vendor\": \"AMD\", \"name\": \"NVIDIA H100 80GB HBM3\", "
         "\"driver\": \"580.159.04\", \"compute_units\": 132}",
         "wrong_vendor"},
        {"e_match.json",
         "{\"vendor\": \"NVIDIA Corporation\", \"name\": \"NVIDIA H100 80GB HBM3\", "
         "\"driver\": \"580.159.04\", \"compute_units\": 132}",
         "right"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char body[2048], fmt[1024];
        snprintf(fmt, sizeof fmt,
                 "{\"format\": \"clfuse-finddb\", \"version\": 1, \"device\": %s, %s",
                 files[i].device, rec);
        snprintf(body, sizeof body, fmt, files[i].solver);
        snprintf(path, sizeof path, "%s/%s", tmp, files[i].file);
        write_str(path, body);
    }
    snprintf(path, sizeof path, "%s/notes.txt", tmp); /* not *.json: not looked at */
    write_str(path, "garbage");
    snprintf(path, sizeof path, "%s/broken.json", tmp); /* *.json garbage: reported */
    write_str(path, "{\"format\": \"clfuse-finddb\", \"vers");

    clf_device_identity d = dev_h100();
    clf_finddb *db = clf_finddb_open(&d, tmp, NULL, warn, sizeof warn);
    assert_non_null(db);
    assert_non_null(strstr(warn, path));
    assert_null(strstr(warn, "a_other_driver"));
    assert_null(strstr(warn, "notes.txt"));
    clf_finddb_entry out[4];
    const char *where;
    assert_int_equal(clf_finddb_lookup(db, "K", out, 4, &where), 1);
    assert_string_equal(out[0].solver, "right");
    assert_string_equal(where, "system");
    assert_int_equal(clf_finddb_key_count(db), 1);
    /* read-only db: store fails with a message */
    char err[512];
    assert_int_equal(clf_finddb_store(db, "K", out, 1, err, sizeof err), -1);
    assert_true(strlen(err) > 0);
    clf_finddb_close(db);

    /* a missing system dir is not a problem */
    snprintf(path, sizeof path, "%s/does-not-exist", tmp);
    db = clf_finddb_open(&d, path, NULL, warn, sizeof warn);
    assert_non_null(db);
    assert_string_equal(warn, "");
    clf_finddb_close(db);
    rm_rf(tmp);
    free(tmp);
}

/* Writes a one-record system file: device (vendor NVIDIA, the given name, driver and compute
** units), key K -> solver. */
static void write_system_file(const char *dir, const char *file, const char *name,
                              const char *driver, unsigned cu, const char *solver)
{
    char path[1024], body[2048];
    snprintf(body, sizeof body,
             "{\"format\": \"clfuse-finddb\", \"version\": 1, \"device\": {\"vendor\": "
             "\"NVIDIA Corporation\", \"name\": \"%s\", \"driver\": \"%s\", "
             "\"compute_units\": %u}, \"records\": {\"K\": [{\"solver\": \"%s\", "
             "\"time_ms\": 1, \"workspace\": 0, \"algorithm\": \"a\"}]}}",
             name, driver, cu, solver);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    write_str(path, body);
}

/* The solver of key K that a db opened for the H100 identity under `driver` finds, and the
** system note, into note. */
static void open_as(const char *dir, const char *driver, char *solver, size_t cap, char *note,
                    size_t note_cap)
{
    clf_device_identity d = dev_h100();
    snprintf(d.driver, sizeof d.driver, "%s", driver);
    char warn[4096];
    clf_finddb *db = clf_finddb_open(&d, dir, NULL, warn, sizeof warn);
    assert_non_null(db);
    assert_string_equal(warn, "");
    clf_finddb_entry out[2];
    const char *where;
    int n = clf_finddb_lookup(db, "K", out, 2, &where);
    snprintf(solver, cap, "%s", n == 1 ? out[0].solver : "(none)");
    snprintf(note, note_cap, "%s", clf_finddb_system_note(db));
    clf_finddb_close(db);
}

/* No system file for this driver: the same device's files under the nearest other driver
** stand in (the newest below, else the oldest above), never another name's or another compute
** unit count's; a file of this driver wins over all of them. */
static void test_nearest_driver_fallback(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    const char *h100 = "NVIDIA H100 80GB HBM3";
    write_system_file(tmp, "a.json", h100, "535.0", 132, "d535");
    write_system_file(tmp, "b.json", h100, "570.65.06", 132, "d570");
    write_system_file(tmp, "c.json", h100, "590.2", 132, "d590");
    write_system_file(tmp, "d.json", h100, "575.0", 114, "other_cu");
    write_system_file(tmp, "e.json", "NVIDIA H200", "575.0", 132, "other_name");
    char solver[64], note[1024];
    /* 580.159.04: the newest below is 570.65.06 (numeric order: 65 < 159 would not matter,
    ** 570 < 575 < 580 does; other_cu's 575.0 is not this device's) */
    open_as(tmp, "580.159.04", solver, sizeof solver, note, sizeof note);
    assert_string_equal(solver, "d570");
    assert_non_null(strstr(note, "driver \"570.65.06\""));
    assert_non_null(strstr(note, "580.159.04"));
    /* numeric, not byte order: 570.9 is below 570.65.06 */
    open_as(tmp, "570.9", solver, sizeof solver, note, sizeof note);
    assert_string_equal(solver, "d535");
    /* every file above: the oldest of them */
    open_as(tmp, "500", solver, sizeof solver, note, sizeof note);
    assert_string_equal(solver, "d535");
    open_as(tmp, "999", solver, sizeof solver, note, sizeof note);
    assert_string_equal(solver, "d590");
    /* this driver's own file: it alone, no note */
    write_system_file(tmp, "f.json", h100, "580.159.04", 132, "own");
    open_as(tmp, "580.159.04", solver, sizeof solver, note, sizeof note);
    assert_string_equal(solver, "own");
    assert_string_equal(note, "");
    /* a file whose driver string is empty stands in too */
    write_system_file(tmp, "g.json", "NVIDIA L4", "", 58, "empty_driver");
    clf_device_identity l4 = dev_h100();
    snprintf(l4.name, sizeof l4.name, "NVIDIA L4");
    l4.compute_units = 58;
    char w4[1024];
    clf_finddb *db4 = clf_finddb_open(&l4, tmp, NULL, w4, sizeof w4);
    assert_non_null(db4);
    clf_finddb_entry e4[2];
    const char *where4;
    assert_int_equal(clf_finddb_lookup(db4, "K", e4, 2, &where4), 1);
    assert_string_equal(e4[0].solver, "empty_driver");
    assert_non_null(strstr(clf_finddb_system_note(db4), "driver \"\" for"));
    clf_finddb_close(db4);
    /* another device name only: nothing */
    clf_device_identity d = dev_h100();
    snprintf(d.name, sizeof d.name, "NVIDIA A100");
    char warn[1024];
    clf_finddb *db = clf_finddb_open(&d, tmp, NULL, warn, sizeof warn);
    assert_non_null(db);
    assert_int_equal(clf_finddb_key_count(db), 0);
    assert_string_equal(clf_finddb_system_note(db), "");
    clf_finddb_close(db);
    rm_rf(tmp);
    free(tmp);
}

typedef struct corrupt_case {
    const char *name;
    const char *data;
    size_t len;         /* 0: strlen(data) */
    const char *expect; /* substring expected in the warning */
} corrupt_case;

static void test_corrupt_user_files(void **state)
{
    (void)state;
    static const char garbage[] = "\x7f"
                                  "ELF\x02\x01\x01\x00\x00\xff\xfe{[\"\x00\x01";
    static const corrupt_case cases[] = {
        {"truncated",
         "{\"format\": \"clfuse-finddb\", \"version\": 1, " DEVICE_H100
         ", \"records\": {\"K\": [{\"solver\": \"S\", \"time_",
         0, "invalid JSON"},
        {"garbage", garbage, sizeof garbage - 1, "invalid JSON"},
        {"wrong version",
         "{\"format\": \"clfuse-finddb\", \"version\": 0, " DEVICE_H100 ", \"records\": {}}", 0,
         "version"},
        {"wrong format",
         "{\"format\": \"something-else\", \"version\": 1, " DEVICE_H100 ", \"records\": {}}", 0,
         "format"},
        {"records not an object",
         "{\"format\": \"clfuse-finddb\", \"version\": 1, " DEVICE_H100 ", \"records\": [1, 2]}", 0,
         "records"},
        {"records missing", "{\"format\": \"clfuse-finddb\", \"version\": 1, " DEVICE_H100 "}", 0,
         "records"},
        {"fractional version",
         "{\"format\": \"clfuse-finddb\", \"version\": 1.5, " DEVICE_H100 ", \"records\": {}}", 0,
         "version"},
        {"top level array", "[1, 2, 3]", 0, "not a JSON object"},
        {"empty file", "", 0, "empty"},
        {"whitespace only", " \n\t\n", 0, "empty"},
        {"trailing garbage",
         "{\"format\": \"clfuse-finddb\", \"version\": 1, " DEVICE_H100 ", \"records\": {}} xx", 0,
         "after the JSON"},
        {"bad device",
         "{\"format\": \"clfuse-finddb\", \"version\": 1, \"device\": "
         "{\"vendor\": 1}, \"records\": {}}",
         0, "device"},
        {"other device",
         "{\"format\": \"clfuse-finddb\", \"version\": 1, \"device\": "
         "{\"vendor\": \"AMD\", \"name\": \"gfx906\", \"driver\": \"x\", "
         "\"compute_units\": 60}, \"records\": {}}",
         0, "another device"},
        {"deep nesting", NULL, 0, "invalid JSON"},
    };
    clf_device_identity d = dev_h100();
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char *tmp = make_tmpdir();
        char upath[1024], warn[4096], err[512];
        user_file_path(tmp, upath, sizeof upath);
        if (cases[c].data) {
            write_file(upath, cases[c].data, cases[c].len ? cases[c].len : strlen(cases[c].data));
        } else {
            /* nesting deeper than cJSON's limit */
            size_t n = 5000;
            char *deep = malloc(2 * n);
            assert_non_null(deep);
            memset(deep, '[', n);
            memset(deep + n, ']', n);
            write_file(upath, deep, 2 * n);
            free(deep);
        }

        clf_finddb *db = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
        assert_non_null(db);
        if (!strstr(warn, upath) || !strstr(warn, cases[c].expect) || !strstr(warn, "set aside"))
            fail_msg("case '%s': unexpected warning: %s", cases[c].name, warn);
        assert_string_equal(clf_finddb_warnings(db), warn);
        /* set aside: the bad file is gone from its place and kept as .corrupt-<time> */
        assert_int_equal(access(upath, F_OK), -1);
        assert_int_equal(
            count_with_prefix(tmp, "NVIDIA_H100_80GB_HBM3_132cu_580.159.04.ufdb.json.corrupt-"), 1);
        clf_finddb_entry out[2];
        assert_int_equal(clf_finddb_lookup(db, "K", out, 2, NULL), 0);
        assert_int_equal(clf_finddb_key_count(db), 0);

        clf_finddb_entry e = entry("After", 0.3, 0);
        assert_int_equal(clf_finddb_store(db, "K", &e, 1, err, sizeof err), 0);
        clf_finddb_close(db);

        db = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
        assert_non_null(db);
        assert_string_equal(warn, "");
        assert_int_equal(clf_finddb_lookup(db, "K", out, 2, NULL), 1);
        assert_string_equal(out[0].solver, "After");
        clf_finddb_close(db);
        rm_rf(tmp);
        free(tmp);
    }
}

static void test_bad_entries_skipped(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char upath[1024], warn[8192], err[2048];
    user_file_path(tmp, upath, sizeof upath);
    char long_solver[100];
    memset(long_solver, 's', 64);
    long_solver[64] = '\0';
    char body[8192];
    snprintf(
        body, sizeof body,
        "{\"format\": \"clfuse-finddb\", \"version\": 1, \"comment\": \"kept\", " DEVICE_H100
        ", \"records\": {"
        "\"good\": [{\"solver\": \"G\", \"time_ms\": 1, \"workspace\": 0, \"algorithm\": \"a\", "
        "\"future\": 7}],"
        "\"mixed\": ["
        "  {\"solver\": \"ok\", \"time_ms\": 1, \"workspace\": 0, \"algorithm\": \"a\"},"
        "  {\"solver\": \"t\", \"time_ms\": \"fast\", \"workspace\": 0, \"algorithm\": \"a\"},"
        "  {\"time_ms\": 1, \"workspace\": 0, \"algorithm\": \"a\"},"
        "  {\"solver\": \"%s\", \"time_ms\": 1, \"workspace\": 0, \"algorithm\": \"a\"},"
        "  {\"solver\": \"w\", \"time_ms\": 1, \"workspace\": -4, \"algorithm\": \"a\"},"
        "  {\"solver\": \"f\", \"time_ms\": 1, \"workspace\": 1.5, \"algorithm\": \"a\"},"
        "  {\"solver\": \"c\", \"time_ms\": 1, \"workspace\": 0, \"algorithm\": \"a\", \"config\": "
        "3},"
        "  {\"solver\": \"\", \"time_ms\": 1, \"workspace\": 0, \"algorithm\": \"a\"},"
        "  {\"solver\": \"i\", \"time_ms\": 1e999, \"workspace\": 0, \"algorithm\": \"a\"},"
        "  \"not an object\", null, 5],"
        "\"notarray\": {\"solver\": \"x\"},"
        "\"empty\": [],"
        "\"allbad\": [1, 2],"
        "\"\": [{\"solver\": \"G\", \"time_ms\": 1, \"workspace\": 0, \"algorithm\": \"a\"}],"
        "\"good\": [{\"solver\": \"Dup\", \"time_ms\": 1, \"workspace\": 0, \"algorithm\": \"a\"}]"
        "}}",
        long_solver);
    write_str(upath, body);
    assert_int_equal(clf_finddb_check_file(upath, err, sizeof err), -1);
    assert_non_null(strstr(err, upath));
    assert_non_null(strstr(err, "\"time_ms\" is not a number"));

    clf_device_identity d = dev_h100();
    clf_finddb *db = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
    assert_non_null(db);
    assert_non_null(strstr(warn, upath));
    assert_non_null(strstr(warn, "\"time_ms\" is not a number"));
    assert_non_null(strstr(warn, "\"solver\" is missing"));
    assert_non_null(strstr(warn, "\"solver\" is 64 bytes long, the limit is 63"));
    assert_non_null(strstr(warn, "\"workspace\" is not an integer"));
    assert_non_null(strstr(warn, "\"config\" is not a string"));
    assert_non_null(strstr(warn, "\"solver\" is empty"));
    assert_non_null(strstr(warn, "not finite"));
    assert_non_null(strstr(warn, "\"notarray\" skipped: not an array"));
    assert_non_null(strstr(warn, "\"empty\" skipped: empty array"));
    assert_non_null(strstr(warn, "\"allbad\" skipped: no valid entries"));
    assert_non_null(strstr(warn, "empty key"));
    assert_non_null(strstr(warn, "appears twice"));
    assert_null(strstr(warn, "set aside")); /* entry problems do not set the file aside */
    assert_int_equal(access(upath, F_OK), 0);

    clf_finddb_entry out[16];
    assert_int_equal(clf_finddb_lookup(db, "good", out, 16, NULL), 1);
    assert_string_equal(out[0].solver, "G");
    assert_int_equal(clf_finddb_lookup(db, "mixed", out, 16, NULL), 1);
    assert_string_equal(out[0].solver, "ok");
    assert_int_equal(clf_finddb_key_count(db), 2);

    /* a store rewrites the file without the bad parts, keeping unknown fields */
    clf_finddb_entry e = entry("New", 1, 0);
    assert_int_equal(clf_finddb_store(db, "new", &e, 1, err, sizeof err), 0);
    assert_int_equal(clf_finddb_check_file(upath, err, sizeof err), 0);
    char *text = read_all(upath);
    assert_non_null(strstr(text, "\"comment\""));
    assert_non_null(strstr(text, "\"future\""));
    assert_null(strstr(text, "Dup"));
    free(text);
    clf_finddb_close(db);

    db = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
    assert_string_equal(warn, "");
    assert_int_equal(clf_finddb_key_count(db), 3);
    clf_finddb_close(db);
    rm_rf(tmp);
    free(tmp);
}

static void test_many_problems_and_small_buffer(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char upath[1024];
    user_file_path(tmp, upath, sizeof upath);
    char *body = malloc(100000);
    assert_non_null(body);
    size_t n = (size_t)sprintf(body, "{\"format\": \"clfuse-finddb\", \"version\": 1, " DEVICE_H100
                                     ", \"records\": {");
    for (int i = 0; i < 200; i++)
        n += (size_t)sprintf(body + n, "%s\"k%d\": 1", i ? "," : "", i);
    sprintf(body + n, "}}");
    write_str(upath, body);
    free(body);

    clf_device_identity d = dev_h100();
    char warn[16384];
    clf_finddb *db = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
    assert_non_null(db);
    assert_non_null(strstr(warn, "and 180 more problems"));
    clf_finddb_close(db);

    char small[32];
    memset(small, 'x', sizeof small);
    db = clf_finddb_open(&d, NULL, tmp, small, sizeof small);
    assert_non_null(db);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_string_equal(small + sizeof small - 4, "...");
    clf_finddb_close(db);
    /* NULL buffer is fine */
    db = clf_finddb_open(&d, NULL, tmp, NULL, 0);
    assert_non_null(db);
    clf_finddb_close(db);
    rm_rf(tmp);
    free(tmp);
}

static void test_too_big_file(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char upath[1024], warn[4096], err[512];
    user_file_path(tmp, upath, sizeof upath);
    int fd = open(upath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)CLF_FINDDB_MAX_FILE_BYTES + 1), 0); /* sparse */
    close(fd);
    assert_int_equal(clf_finddb_check_file(upath, err, sizeof err), -1);
    assert_non_null(strstr(err, "limit"));
    clf_device_identity d = dev_h100();
    clf_finddb *db = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
    assert_non_null(db);
    assert_non_null(strstr(warn, "limit"));
    assert_non_null(strstr(warn, "set aside"));
    clf_finddb_close(db);
    rm_rf(tmp);
    free(tmp);
}

/*
** A user file that may hold good records this build cannot use: a directory or a FIFO in its
** place, a file without read permission, one written by a newer version. Each is reported once
** at open, left exactly where and as it is (never set aside, never overwritten: stores are
** refused with the reason), and never hangs (alarm) or crashes. Once the obstacle is gone,
** stores work again.
*/
enum leave_kind { LEAVE_DIR, LEAVE_FIFO, LEAVE_NEWER, LEAVE_NO_PERMISSION };

static void test_user_file_left_alone(void **state)
{
    (void)state;
    static const struct {
        enum leave_kind kind;
        const char *expect;
    } cases[] = {
        {LEAVE_DIR, "not a regular file (a directory)"},
        {LEAVE_FIFO, "not a regular file (a FIFO)"},
        {LEAVE_NEWER, "written by a newer clfuse (find-db version 2"},
        {LEAVE_NO_PERMISSION, "Permission denied"},
    };
    static const char newer[] =
        "{\"format\": \"clfuse-finddb\", \"version\": 2, " DEVICE_H100
        ", \"records\": {\"K\": [{\"solver\": \"S2\", \"time_ms\": 1, \"workspace\": 0, "
        "\"algorithm\": \"a\", \"future_field\": {\"x\": 1}}]}}";
    clf_device_identity d = dev_h100();
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        if (cases[c].kind == LEAVE_NO_PERMISSION && geteuid() == 0)
            continue; /* permissions do not bind root */
        char *tmp = make_tmpdir();
        char upath[1024], warn[4096], err[2048];
        user_file_path(tmp, upath, sizeof upath);
        switch (cases[c].kind) {
        case LEAVE_DIR: assert_int_equal(mkdir(upath, 0700), 0); break;
        case LEAVE_FIFO: assert_int_equal(mkfifo(upath, 0600), 0); break;
        case LEAVE_NEWER: write_str(upath, newer); break;
        case LEAVE_NO_PERMISSION:
            write_str(upath, newer);
            assert_int_equal(chmod(upath, 0), 0);
            break;
        }
        alarm(20); /* a blocking open of the FIFO would hang here */
        clf_finddb *db = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
        assert_non_null(db);
        if (!strstr(warn, upath) || !strstr(warn, cases[c].expect) || !strstr(warn, "left alone"))
            fail_msg("case %zu: unexpected warning: %s", c, warn);
        clf_finddb_entry out[2];
        assert_int_equal(clf_finddb_lookup(db, "K", out, 2, NULL), 0);
        clf_finddb_entry e = entry("Mine", 0.5, 0);
        assert_int_equal(clf_finddb_store(db, "K", &e, 1, err, sizeof err), -1);
        if (!strstr(err, upath) || !strstr(err, cases[c].expect) || !strstr(err, "not overwritten"))
            fail_msg("case %zu: unexpected store error: %s", c, err);
        assert_int_equal(clf_finddb_remove(db, "K", err, sizeof err), -1);
        /* reported once: the refused store added nothing to the open-time warnings */
        assert_string_equal(clf_finddb_warnings(db), warn);
        clf_finddb_close(db);
        alarm(0);
        /* still there, as it was, and nothing set aside */
        struct stat st;
        assert_int_equal(lstat(upath, &st), 0);
        assert_int_equal(
            count_with_prefix(tmp, "NVIDIA_H100_80GB_HBM3_132cu_580.159.04.ufdb.json.corrupt-"), 0);
        switch (cases[c].kind) {
        case LEAVE_DIR:
            assert_true(S_ISDIR(st.st_mode));
            rmdir(upath);
            break;
        case LEAVE_FIFO:
            assert_true(S_ISFIFO(st.st_mode));
            unlink(upath);
            break;
        case LEAVE_NO_PERMISSION: assert_int_equal(chmod(upath, 0600), 0); /* fall through */
        case LEAVE_NEWER: {
            char *now = read_all(upath);
            assert_string_equal(now, newer);
            free(now);
            unlink(upath);
            break;
        }
        }
        /* obstacle gone: the same object stores again */
        db = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
        assert_non_null(db);
        assert_string_equal(warn, "");
        assert_int_equal(clf_finddb_store(db, "K", &e, 1, err, sizeof err), 0);
        assert_int_equal(clf_finddb_lookup(db, "K", out, 2, NULL), 1);
        assert_string_equal(out[0].solver, "Mine");
        clf_finddb_close(db);
        rm_rf(tmp);
        free(tmp);
    }
}

/* A FIFO or a directory named *.json in the system dir is reported and skipped; the other
** system files still load. */
static void test_system_dir_non_regular(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char path[1024], warn[4096];
    snprintf(path, sizeof path, "%s/a_fifo.json", tmp);
    assert_int_equal(mkfifo(path, 0600), 0);
    snprintf(path, sizeof path, "%s/b_dir.json", tmp);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/c_good.json", tmp);
    write_str(path, "{\"format\": \"clfuse-finddb\", \"version\": 1, " DEVICE_H100
                    ", \"records\": {\"K\": [{\"solver\": \"Sys\", \"time_ms\": 1, "
                    "\"workspace\": 0, \"algorithm\": \"a\"}]}}");
    clf_device_identity d = dev_h100();
    alarm(20);
    clf_finddb *db = clf_finddb_open(&d, tmp, NULL, warn, sizeof warn);
    alarm(0);
    assert_non_null(db);
    assert_non_null(strstr(warn, "a_fifo.json: unreadable: not a regular file (a FIFO)"));
    assert_non_null(strstr(warn, "b_dir.json: unreadable: not a regular file (a directory)"));
    clf_finddb_entry out[1];
    assert_int_equal(clf_finddb_lookup(db, "K", out, 1, NULL), 1);
    assert_string_equal(out[0].solver, "Sys");
    clf_finddb_close(db);
    rm_rf(tmp);
    free(tmp);
}

/* Each child stores 25 keys: 20 of its own and 5 shared by all children. */
#define CHILDREN 4
#define OWN_KEYS 20
#define SHARED_KEYS 5

static int child_main(const char *udir, int id)
{
    clf_device_identity d = dev_h100();
    char warn[4096], err[1024], key[64];
    clf_finddb *db = clf_finddb_open(&d, NULL, udir, warn, sizeof warn);
    if (!db)
        return 10;
    for (int i = 0; i < OWN_KEYS + SHARED_KEYS; i++) {
        if (i < OWN_KEYS)
            snprintf(key, sizeof key, "own-%d-%d", id, i);
        else
            snprintf(key, sizeof key, "shared-%d", i - OWN_KEYS);
        char solver[32];
        snprintf(solver, sizeof solver, "child%d", id);
        clf_finddb_entry e[2] = {entry(solver, 0.01 * i, (uint64_t)i), entry("Fallback", -1, 0)};
        if (clf_finddb_store(db, key, e, 2, err, sizeof err) != 0) {
            fprintf(stderr, "child %d: %s\n", id, err);
            clf_finddb_close(db);
            return 11;
        }
        clf_finddb_entry out[2];
        if (clf_finddb_lookup(db, key, out, 2, NULL) != 2) {
            clf_finddb_close(db);
            return 12;
        }
    }
    clf_finddb_close(db);
    return 0;
}

static void test_concurrent_store(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char udir[512];
    snprintf(udir, sizeof udir, "%s/db", tmp); /* children race on mkdir -p too */
    pid_t pids[CHILDREN];
    for (int c = 0; c < CHILDREN; c++) {
        pids[c] = fork();
        assert_true(pids[c] >= 0);
        if (pids[c] == 0)
            _exit(child_main(udir, c));
    }
    for (int c = 0; c < CHILDREN; c++) {
        int st;
        assert_int_equal(waitpid(pids[c], &st, 0), pids[c]);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 0);
    }

    char upath[1024], err[1024], warn[4096], key[64];
    user_file_path(udir, upath, sizeof upath);
    if (clf_finddb_check_file(upath, err, sizeof err) != 0)
        fail_msg("%s", err);
    clf_device_identity d = dev_h100();
    clf_finddb *db = clf_finddb_open(&d, NULL, udir, warn, sizeof warn);
    assert_non_null(db);
    assert_string_equal(warn, "");
    assert_int_equal(clf_finddb_key_count(db), CHILDREN * OWN_KEYS + SHARED_KEYS);
    clf_finddb_entry out[4];
    for (int c = 0; c < CHILDREN; c++) {
        for (int i = 0; i < OWN_KEYS; i++) {
            snprintf(key, sizeof key, "own-%d-%d", c, i);
            char solver[32];
            snprintf(solver, sizeof solver, "child%d", c);
            assert_int_equal(clf_finddb_lookup(db, key, out, 4, NULL), 2);
            assert_string_equal(out[0].solver, solver);
            assert_string_equal(out[1].solver, "Fallback");
            assert_int_equal(out[0].workspace, (uint64_t)i);
        }
    }
    for (int i = 0; i < SHARED_KEYS; i++) {
        snprintf(key, sizeof key, "shared-%d", i);
        assert_int_equal(clf_finddb_lookup(db, key, out, 4, NULL), 2);
        assert_memory_equal(out[0].solver, "child", 5);
    }
    clf_finddb_close(db);
    /* no temp file left behind */
    assert_int_equal(
        count_with_prefix(udir, "NVIDIA_H100_80GB_HBM3_132cu_580.159.04.ufdb.json.tmp"), 0);
    rm_rf(tmp);
    free(tmp);
}

/* Threads of one process: two with their own db objects (flock excludes them,
** since each opens the lock file itself) and two sharing one object (its mutex). */
typedef struct thread_arg {
    const char *udir;
    clf_finddb *shared; /* NULL: open a private one */
    int id, failures;
} thread_arg;

static void *thread_main(void *p)
{
    thread_arg *a = p;
    clf_device_identity d = dev_h100();
    char warn[1024], err[1024], key[64];
    clf_finddb *db = a->shared ? a->shared : clf_finddb_open(&d, NULL, a->udir, warn, sizeof warn);
    if (!db) {
        a->failures++;
        return NULL;
    }
    for (int i = 0; i < 15; i++) {
        snprintf(key, sizeof key, "thread-%d-%d", a->id, i);
        clf_finddb_entry e = entry("T", 0.5, (uint64_t)a->id);
        if (clf_finddb_store(db, key, &e, 1, err, sizeof err) != 0)
            a->failures++;
        clf_finddb_entry out;
        if (clf_finddb_lookup(db, key, &out, 1, NULL) != 1 || out.workspace != (uint64_t)a->id)
            a->failures++;
    }
    if (!a->shared)
        clf_finddb_close(db);
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char warn[1024];
    clf_device_identity d = dev_h100();
    clf_finddb *shared = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
    assert_non_null(shared);
    pthread_t th[4];
    thread_arg args[4];
    for (int i = 0; i < 4; i++) {
        args[i] = (thread_arg){tmp, i < 2 ? NULL : shared, i, 0};
        assert_int_equal(pthread_create(&th[i], NULL, thread_main, &args[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        assert_int_equal(pthread_join(th[i], NULL), 0);
        assert_int_equal(args[i].failures, 0);
    }
    clf_finddb_close(shared);
    clf_finddb *db = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
    assert_string_equal(warn, "");
    assert_int_equal(clf_finddb_key_count(db), 60);
    clf_finddb_close(db);
    rm_rf(tmp);
    free(tmp);
}

static void test_store_unwritable(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char udir[512], path[1024], err[1024], warn[1024];
    clf_device_identity d = dev_h100();
    clf_finddb_entry e = entry("S", 1, 0);

    /* a regular file where a directory should be: fails even for root */
    snprintf(path, sizeof path, "%s/afile", tmp);
    write_str(path, "x");
    snprintf(udir, sizeof udir, "%s/afile/sub", tmp);
    clf_finddb *db = clf_finddb_open(&d, NULL, udir, warn, sizeof warn);
    assert_non_null(db);
    assert_int_equal(clf_finddb_store(db, "K", &e, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "afile"));
    assert_int_equal(clf_finddb_remove(db, "K", err, sizeof err), 0);
    clf_finddb_close(db);

    /* a read-only directory (permissions do not bind root) */
    if (geteuid() != 0) {
        snprintf(udir, sizeof udir, "%s/ro", tmp);
        assert_int_equal(mkdir(udir, 0500), 0);
        db = clf_finddb_open(&d, NULL, udir, warn, sizeof warn);
        assert_int_equal(clf_finddb_store(db, "K", &e, 1, err, sizeof err), -1);
        assert_non_null(strstr(err, udir));
        clf_finddb_close(db);
    }

    /* read-only db (no user dir) */
    db = clf_finddb_open(&d, NULL, NULL, warn, sizeof warn);
    assert_non_null(db);
    assert_string_equal(clf_finddb_user_path(db), "");
    assert_int_equal(clf_finddb_store(db, "K", &e, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "read-only"));
    assert_int_equal(clf_finddb_remove(db, "K", err, sizeof err), -1);
    clf_finddb_close(db);
    rm_rf(tmp);
    free(tmp);
}

static void test_store_validation(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char err[512], warn[512];
    clf_device_identity d = dev_h100();
    clf_finddb *db = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
    clf_finddb_entry e = entry("S", 1, 0);
    assert_int_equal(clf_finddb_store(db, "K", &e, 0, err, sizeof err), -1);
    assert_int_equal(clf_finddb_store(db, "K", NULL, 1, err, sizeof err), -1);
    assert_int_equal(clf_finddb_store(db, "", &e, 1, err, sizeof err), -1);
    assert_int_equal(clf_finddb_store(db, NULL, &e, 1, err, sizeof err), -1);
    char *longkey = malloc(CLF_FINDDB_MAX_KEY + 2);
    memset(longkey, 'k', CLF_FINDDB_MAX_KEY + 1);
    longkey[CLF_FINDDB_MAX_KEY + 1] = '\0';
    assert_int_equal(clf_finddb_store(db, longkey, &e, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "limit"));
    free(longkey);
    clf_finddb_entry bad = e;
    bad.time_ms = NAN;
    assert_int_equal(clf_finddb_store(db, "K", &bad, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "time_ms"));
    bad = e;
    bad.time_ms = INFINITY;
    assert_int_equal(clf_finddb_store(db, "K", &bad, 1, err, sizeof err), -1);
    bad = e;
    memset(bad.solver, 'x', sizeof bad.solver);
    assert_int_equal(clf_finddb_store(db, "K", &bad, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "NUL"));
    bad = e;
    bad.solver[0] = '\0';
    assert_int_equal(clf_finddb_store(db, "K", &bad, 1, err, sizeof err), -1);
    bad = e;
    bad.workspace = CLF_FINDDB_MAX_WORKSPACE + 1;
    assert_int_equal(clf_finddb_store(db, "K", &bad, 1, err, sizeof err), -1);
    clf_finddb_entry two[2] = {e, e};
    memset(two[1].provenance, 'p', sizeof two[1].provenance);
    assert_int_equal(clf_finddb_store(db, "K", two, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "entry 1"));
    /* nothing was written by the failed calls */
    assert_int_equal(access(clf_finddb_user_path(db), F_OK), -1);
    assert_int_equal(clf_finddb_store(db, "K", &e, 1, NULL, 0), 0);
    clf_finddb_close(db);
    rm_rf(tmp);
    free(tmp);
}

static void test_lock_timeout(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char err[1024], warn[512], lock[1024];
    clf_device_identity d = dev_h100();
    clf_finddb *db = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
    clf_finddb_entry e = entry("S", 1, 0);
    snprintf(lock, sizeof lock, "%s.lock", clf_finddb_user_path(db));
    /* flock locks belong to the open file description: a second open in the same
    ** process conflicts like another process would. */
    int fd = clf_finddb_lock(lock, 0, err, sizeof err);
    assert_true(fd >= 0);
    clf_finddb_set_lock_timeout(db, 200);
    assert_int_equal(clf_finddb_store(db, "K", &e, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "timed out"));
    assert_non_null(strstr(err, lock));
    assert_int_equal(clf_finddb_lookup(db, "K", &e, 1, NULL), 0);
    clf_finddb_unlock(fd);
    assert_int_equal(clf_finddb_store(db, "K", &e, 1, err, sizeof err), 0);
    clf_finddb_close(db);
    rm_rf(tmp);
    free(tmp);
}

static void test_remove(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char err[512], warn[512], udir[600];
    snprintf(udir, sizeof udir, "%s/u", tmp);
    clf_device_identity d = dev_h100();
    clf_finddb *db = clf_finddb_open(&d, NULL, udir, warn, sizeof warn);
    /* absent key, no file yet: 0, and nothing is created */
    assert_int_equal(clf_finddb_remove(db, "X", err, sizeof err), 0);
    assert_int_equal(access(udir, F_OK), -1);
    clf_finddb_entry e = entry("S", 1, 0);
    assert_int_equal(clf_finddb_store(db, "K1", &e, 1, err, sizeof err), 0);
    assert_int_equal(clf_finddb_store(db, "K2", &e, 1, err, sizeof err), 0);
    assert_int_equal(clf_finddb_remove(db, "K1", err, sizeof err), 1);
    assert_int_equal(clf_finddb_remove(db, "K1", err, sizeof err), 0);
    assert_int_equal(clf_finddb_lookup(db, "K1", &e, 1, NULL), 0);
    assert_int_equal(clf_finddb_key_count(db), 1);
    assert_int_equal(clf_finddb_remove(db, "", err, sizeof err), -1);
    clf_finddb_close(db);
    db = clf_finddb_open(&d, NULL, udir, warn, sizeof warn);
    assert_int_equal(clf_finddb_lookup(db, "K1", &e, 1, NULL), 0);
    assert_int_equal(clf_finddb_lookup(db, "K2", &e, 1, NULL), 1);
    assert_int_equal(clf_finddb_remove(db, "K2", err, sizeof err), 1);
    assert_int_equal(clf_finddb_key_count(db), 0);
    clf_finddb_close(db);
    rm_rf(tmp);
    free(tmp);
}

/* A second db object sees other writers' keys after its own store. */
static void test_store_keeps_other_writers(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char err[512], warn[512];
    clf_device_identity d = dev_h100();
    clf_finddb *a = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
    clf_finddb *b = clf_finddb_open(&d, NULL, tmp, warn, sizeof warn);
    clf_finddb_entry e = entry("S", 1, 0);
    assert_int_equal(clf_finddb_store(a, "A", &e, 1, err, sizeof err), 0);
    assert_int_equal(clf_finddb_store(b, "B", &e, 1, err, sizeof err), 0);
    assert_int_equal(clf_finddb_key_count(b), 2); /* b re-read the file under the lock */
    assert_int_equal(clf_finddb_key_count(a), 1); /* a has not re-read yet */
    assert_int_equal(clf_finddb_remove(a, "B", err, sizeof err), 1);
    assert_int_equal(clf_finddb_key_count(a), 1);
    clf_finddb_close(a);
    clf_finddb_close(b);
    rm_rf(tmp);
    free(tmp);
}

static void test_check_file(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/ok.json", tmp);
    write_str(
        path,
        "{\"format\": \"clfuse-finddb\", \"version\": 1, \"device\": {\"vendor\": \"v\", "
        "\"name\": \"n\", \"driver\": \"d\", \"compute_units\": 1}, \"records\": {\"K\": "
        "[{\"solver\": \"S\", \"time_ms\": -0.5, \"workspace\": 12, \"algorithm\": \"a\"}]}}");
    assert_int_equal(clf_finddb_check_file(path, err, sizeof err), 0);
    assert_string_equal(err, "");
    snprintf(path, sizeof path, "%s/missing.json", tmp);
    assert_int_equal(clf_finddb_check_file(path, err, sizeof err), -1);
    assert_non_null(strstr(err, "missing.json"));
    snprintf(path, sizeof path, "%s/bad.json", tmp);
    write_str(path, "{\"format\": \"clfuse-finddb\", \"version\": 1.5}");
    assert_int_equal(clf_finddb_check_file(path, err, sizeof err), -1);
    assert_non_null(strstr(err, "version 1.5"));
    /* a directory is not a find-db file */
    assert_int_equal(clf_finddb_check_file(tmp, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a regular file"));
    rm_rf(tmp);
    free(tmp);
}

/* The single-file document used by clfuse-db: load, get, put, remove, merge, serialise. */
static void test_file_document(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char a_path[1024], b_path[1024], err[1024], warn[2048];
    snprintf(a_path, sizeof a_path, "%s/a.json", tmp);
    snprintf(b_path, sizeof b_path, "%s/b.json", tmp);
    /* a: K1 {S1 1.0, S2 -1 estimate}, K2 {S1}, one bad entry, an unknown member kept */
    write_str(
        a_path,
        "{\"format\": \"clfuse-finddb\", \"version\": 1, " DEVICE_H100 ", \"extra\": 7, "
        "\"records\": {\"K2\": [{\"solver\": \"S1\", \"config\": \"c\", \"time_ms\": 3, "
        "\"workspace\": 0, \"algorithm\": \"a\"}], "
        "\"K1\": [{\"solver\": \"S2\", \"time_ms\": -1, \"workspace\": 5, \"algorithm\": \"a\"}, "
        "{\"solver\": \"S1\", \"time_ms\": 1.0, \"workspace\": 0, \"algorithm\": \"a\"}, "
        "{\"solver\": 42}]}}");
    clf_finddb_file *a = clf_finddb_file_load(a_path, warn, sizeof warn, err, sizeof err);
    assert_non_null(a);
    assert_non_null(strstr(warn, "entry 2 skipped"));
    assert_string_equal(clf_finddb_file_device(a)->name, "NVIDIA H100 80GB HBM3");
    assert_int_equal(clf_finddb_file_key_count(a), 2);
    assert_string_equal(clf_finddb_file_key_at(a, 0), "K1");
    assert_string_equal(clf_finddb_file_key_at(a, 1), "K2");
    assert_null(clf_finddb_file_key_at(a, 2));
    clf_finddb_entry e[8];
    assert_int_equal(clf_finddb_file_get(a, "K1", NULL, 0), 2);
    assert_int_equal(clf_finddb_file_get(a, "K1", e, 8), 2);
    assert_string_equal(e[0].solver, "S1"); /* ranked: measurement first */
    assert_string_equal(e[1].solver, "S2");
    assert_int_equal(clf_finddb_file_get(a, "nope", e, 8), 0);

    /* b: K1 {S1 0.5 (better), S2 -2 (worse estimate), S3 new}, K3 new */
    clf_finddb_file *b = clf_finddb_file_new(clf_finddb_file_device(a));
    assert_non_null(b);
    clf_finddb_entry be[3] = {entry("S1", 0.5, 0), entry("S2", -2, 5), entry("S3", 2, 0)};
    snprintf(be[0].config, sizeof be[0].config, "%s", ""); /* same (solver, config) as a's S1 */
    snprintf(be[1].config, sizeof be[1].config, "%s", "");
    assert_int_equal(clf_finddb_file_put(b, "K1", be, 3, err, sizeof err), 0);
    assert_int_equal(clf_finddb_file_put(b, "K3", be + 2, 1, err, sizeof err), 0);
    assert_int_equal(clf_finddb_file_put(b, "", be, 1, err, sizeof err), -1);
    assert_int_equal(clf_finddb_file_put(b, "K4", be, 0, err, sizeof err), -1);

    assert_int_equal(clf_finddb_file_merge(a, b, err, sizeof err), 2); /* K1 changed, K3 added */
    assert_int_equal(clf_finddb_file_key_count(a), 3);
    assert_int_equal(clf_finddb_file_get(a, "K1", e, 8), 3);
    assert_string_equal(e[0].solver, "S1");
    assert_true(e[0].time_ms == 0.5);
    assert_string_equal(e[1].solver, "S3");
    assert_string_equal(e[2].solver, "S2");
    assert_true(e[2].time_ms == -1); /* the estimate nearer zero stays */
    assert_int_equal(clf_finddb_file_merge(a, b, err, sizeof err), 0); /* idempotent */

    /* remove, serialise, load back: the unknown member survives */
    assert_int_equal(clf_finddb_file_remove(a, "K2"), 1);
    assert_int_equal(clf_finddb_file_remove(a, "K2"), 0);
    size_t len = 0;
    char *text = clf_finddb_file_serialise(a, &len);
    assert_non_null(text);
    assert_int_equal(strlen(text), len);
    assert_non_null(strstr(text, "\"extra\": 7"));
    write_file(b_path, text, len);
    free(text);
    assert_int_equal(clf_finddb_check_file(b_path, err, sizeof err), 0);
    clf_finddb_file *c = clf_finddb_file_load(b_path, warn, sizeof warn, err, sizeof err);
    assert_non_null(c);
    assert_string_equal(warn, "");
    assert_int_equal(clf_finddb_file_key_count(c), 2);
    assert_int_equal(clf_finddb_file_get(c, "K1", e, 8), 3);
    assert_int_equal(clf_finddb_file_get(c, "K2", e, 8), 0);

    /* another device: refused, nothing changes */
    clf_device_identity other = dev_h100();
    other.compute_units = 114;
    clf_finddb_file *d = clf_finddb_file_new(&other);
    assert_int_equal(clf_finddb_file_put(d, "K9", be, 1, err, sizeof err), 0);
    assert_int_equal(clf_finddb_file_merge(c, d, err, sizeof err), -1);
    assert_non_null(strstr(err, "devices differ"));
    assert_int_equal(clf_finddb_file_key_count(c), 2);

    /* file-level problems */
    write_str(b_path, "{\"format\": \"clfuse-finddb\", \"vers");
    assert_null(clf_finddb_file_load(b_path, warn, sizeof warn, err, sizeof err));
    assert_non_null(strstr(err, "invalid JSON"));
    snprintf(b_path, sizeof b_path, "%s/missing.json", tmp);
    assert_null(clf_finddb_file_load(b_path, NULL, 0, err, sizeof err));
    assert_non_null(strstr(err, "no such file"));

    clf_finddb_file_free(a);
    clf_finddb_file_free(b);
    clf_finddb_file_free(c);
    clf_finddb_file_free(d);
    clf_finddb_file_free(NULL);
    rm_rf(tmp);
    free(tmp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basename),
        cmocka_unit_test(test_default_user_dir),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_workspace_limits),
        cmocka_unit_test(test_user_overrides_system),
        cmocka_unit_test(test_nearest_driver_fallback),
        cmocka_unit_test(test_sort_order),
        cmocka_unit_test(test_other_devices_ignored),
        cmocka_unit_test(test_corrupt_user_files),
        cmocka_unit_test(test_bad_entries_skipped),
        cmocka_unit_test(test_many_problems_and_small_buffer),
        cmocka_unit_test(test_too_big_file),
        cmocka_unit_test(test_user_file_left_alone),
        cmocka_unit_test(test_system_dir_non_regular),
        cmocka_unit_test(test_concurrent_store),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_store_unwritable),
        cmocka_unit_test(test_store_validation),
        cmocka_unit_test(test_lock_timeout),
        cmocka_unit_test(test_remove),
        cmocka_unit_test(test_store_keeps_other_writers),
        cmocka_unit_test(test_check_file),
        cmocka_unit_test(test_file_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
