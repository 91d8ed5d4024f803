/* Fuzz target: the find-db parser and merger (lib/finddb).
 *
 * The input is the content of a find-db file. It is loaded as a document
 * (clf_finddb_file_load, which clfuse-db uses), checked (clf_finddb_check_file), opened as
 * the user layer of a layered db (clf_finddb_open: the path every handle takes, with
 * lookups of every key), and, when it loads, serialised, reloaded and merged. Properties
 * that abort (a finding) when broken:
 *   - serialising is a fixed point: serialise(load(serialise(d))) == serialise(d);
 *   - a reloaded document has the same keys, and every key the same number of entries;
 *   - merging a document into an empty one of the same device adds every key;
 *   - merging a document into its own copy changes no key count;
 *   - as the only system file, it gives the same keys to its own device and to the same
 *     device under another driver (the nearest-driver fallback), and only the latter open
 *     reports standing in.
 * Stores are not fuzzed here: each one fsyncs, which would make the file system the target. */
#include "fuzz.h"
#include "tmpdir.h"

#include "finddb/finddb.h"
#include "finddb/finddb_edit.h"

static void write_text(const char *path, const char *text, size_t len)
{
    fuzz_write_file(path, text, len);
}

/* Every key's entries through the layered db that reads the file as its user layer. */
static void open_layered(const char *dir, const clf_device_identity *dev, const uint8_t *data,
                         size_t size)
{
    char base[300], path[600];
    clf_finddb_basename(dev, base, sizeof base);
    snprintf(path, sizeof path, "%s/%s.ufdb.json", dir, base);
    fuzz_write_file(path, data, size);
    char warnings[1024];
    clf_finddb *db = clf_finddb_open(dev, NULL, dir, warnings, sizeof warnings);
    if (db == NULL)
        abort(); /* NULL only on out-of-memory */
    int n = clf_finddb_key_count(db);
    for (int i = 0; i < n; ++i) {
        const char *key = clf_finddb_key_at(db, i);
        if (key == NULL)
            abort(); /* in range by the count */
        clf_finddb_entry e[4];
        const char *found = NULL;
        int got = clf_finddb_lookup(db, key, e, 4, &found);
        int all = clf_finddb_entry_count(db, key);
        if (got < 0 || got > 4 || all < got || (got > 0 && found == NULL))
            abort();
        clf_finddb_lookup_layer(db, key, 0, NULL, 0);
    }
    clf_finddb_close(db);
    /* a corrupt file is set aside (renamed): start the next input clean */
    fuzz_clear_dir(dir);
}

/* The document as the only system file, opened for its own device and for the same device
** under another driver (the nearest-driver fallback): the same keys load both ways, and only
** the second open says it stood in for another driver. */
static void open_as_system(const char *dir, const clf_device_identity *dev, const uint8_t *data,
                           size_t size)
{
    char sys[300], path[400];
    snprintf(sys, sizeof sys, "%s/sys", dir);
    if (mkdir(sys, 0700) != 0)
        abort(); /* a harness problem, not a finding */
    snprintf(path, sizeof path, "%s/a.json", sys);
    fuzz_write_file(path, data, size);
    clf_device_identity other = *dev;
    const size_t len = strnlen(other.driver, sizeof other.driver);
    if (len + 1 < sizeof other.driver) {
        other.driver[len] = 'x';
        other.driver[len + 1] = '\0';
    } else {
        other.driver[0] = other.driver[0] == 'x' ? 'y' : 'x';
    }
    char warnings[1024];
    clf_finddb *own = clf_finddb_open(dev, sys, NULL, warnings, sizeof warnings);
    clf_finddb *near = clf_finddb_open(&other, sys, NULL, warnings, sizeof warnings);
    if (own == NULL || near == NULL)
        abort(); /* NULL only on out-of-memory */
    const int keys = clf_finddb_key_count(own);
    if (clf_finddb_key_count(near) != keys || clf_finddb_system_note(own)[0] != '\0' ||
        (keys > 0 && clf_finddb_system_note(near)[0] == '\0')) {
        fprintf(stderr, "fuzz_finddb: %d keys for the file's own driver, %d under another (%s)\n",
                keys, clf_finddb_key_count(near), clf_finddb_system_note(near));
        abort();
    }
    clf_finddb_close(own);
    clf_finddb_close(near);
    fuzz_clear_dir(sys);
    rmdir(sys);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = fuzz_tmpdir();
    char path[512], again[512];
    snprintf(path, sizeof path, "%s/input.json", dir);
    snprintf(again, sizeof again, "%s/again.json", dir);
    fuzz_write_file(path, data, size);

    char err[512], warnings[2048];
    clf_finddb_check_file(path, err, sizeof err);
    clf_finddb_file *doc = clf_finddb_file_load(path, warnings, sizeof warnings, err, sizeof err);
    if (doc == NULL) {
        /* Not a document; the layered open must still survive it (as a corrupt user db). */
        static const clf_device_identity anydev = {"fuzz", "fuzz", "1", 1};
        open_layered(dir, &anydev, data, size);
        return 0;
    }
    clf_device_identity dev = *clf_finddb_file_device(doc);
    open_as_system(dir, &dev, data, size);
    open_layered(dir, &dev, data, size);

    size_t len1 = 0, len2 = 0;
    char *text1 = clf_finddb_file_serialise(doc, &len1);
    if (text1 == NULL)
        abort();
    write_text(again, text1, len1);
    clf_finddb_file *doc2 = clf_finddb_file_load(again, warnings, sizeof warnings, err, sizeof err);
    if (doc2 == NULL) {
        fprintf(stderr, "fuzz_finddb: clfuse's own output does not load: %s\n", err);
        abort();
    }
    char *text2 = clf_finddb_file_serialise(doc2, &len2);
    if (text2 == NULL || len1 != len2 || memcmp(text1, text2, len1) != 0) {
        fprintf(stderr, "fuzz_finddb: serialise(load(serialise(d))) != serialise(d)\n");
        abort();
    }
    int keys = clf_finddb_file_key_count(doc);
    if (clf_finddb_file_key_count(doc2) != keys)
        abort();
    for (int i = 0; i < keys; ++i) {
        const char *k = clf_finddb_file_key_at(doc, i);
        if (clf_finddb_file_get(doc, k, NULL, 0) != clf_finddb_file_get(doc2, k, NULL, 0))
            abort();
    }

    clf_finddb_file *empty = clf_finddb_file_new(&dev);
    if (empty == NULL)
        abort();
    if (clf_finddb_file_merge(empty, doc, err, sizeof err) < 0 ||
        clf_finddb_file_key_count(empty) != keys) {
        fprintf(stderr, "fuzz_finddb: merge into an empty document: %s\n", err);
        abort();
    }
    if (clf_finddb_file_merge(doc2, doc, err, sizeof err) < 0 ||
        clf_finddb_file_key_count(doc2) != keys)
        abort();
    /* The merged document serialises and reloads too. */
    size_t len3 = 0;
    char *text3 = clf_finddb_file_serialise(doc2, &len3);
    if (text3 == NULL)
        abort();
    write_text(again, text3, len3);
    clf_finddb_file *doc3 = clf_finddb_file_load(again, NULL, 0, err, sizeof err);
    if (doc3 == NULL || clf_finddb_file_key_count(doc3) != keys)
        abort();
    /* Removing a key removes exactly one. */
    if (keys > 0) {
        char k[CLF_FINDDB_MAX_KEY + 1];
        snprintf(k, sizeof k, "%s", clf_finddb_file_key_at(doc3, 0));
        if (clf_finddb_file_remove(doc3, k) != 1 || clf_finddb_file_key_count(doc3) != keys - 1)
            abort();
    }
    clf_finddb_file_free(doc3);
    free(text3);
    clf_finddb_file_free(empty);
    free(text2);
    free(text1);
    clf_finddb_file_free(doc2);
    clf_finddb_file_free(doc);
    fuzz_clear_dir(dir);
    return 0;
}
