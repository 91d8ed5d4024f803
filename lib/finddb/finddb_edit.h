/*
** finddb_edit.h: one find-db file as an editable document, and the whole-file check, for
** clfuse-db and the tests. Not part of libclfuse (nothing in the library or the public API
** uses it): lib/CMakeLists.txt builds finddb_edit.c as the static library
** clfuse_finddb_edit, which tools/db and the tests link (through clfuse_internal).
*/
#ifndef CLF_FINDDB_EDIT_H
#define CLF_FINDDB_EDIT_H

#include "finddb/finddb.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
** Loads and validates a single file for tooling (clfuse-db check/merge), without
** any device filter. Returns 0 if the file is valid in every entry, -1 with the
** reason(s) in err (file-level problem or the first skipped entries).
*/
int clf_finddb_check_file(const char *path, char *err, size_t err_cap);

/*
** A single find-db file loaded without layering or a device filter: its device
** identity and its records, editable in memory and serialisable in the format
** clfuse writes (records sorted by key, entries ranked, one entry per line;
** unknown members outside the records changed are kept). Not thread-safe.
*/
typedef struct clf_finddb_file clf_finddb_file;

/*
** Loads path. A file-level problem (missing, unreadable, invalid JSON, wrong
** format/version/device header) returns NULL with "finddb: <path>: <problem>" in
** err. Bad records and entries are dropped, each reported as one line in
** warnings (may be NULL), as clf_finddb_check_file reports them.
*/
clf_finddb_file *clf_finddb_file_load(const char *path, char *warnings, size_t warnings_cap,
                                      char *err, size_t err_cap);

/* An empty document for dev. NULL on out-of-memory. */
clf_finddb_file *clf_finddb_file_new(const clf_device_identity *dev);

/* Frees everything; accepts NULL. */
void clf_finddb_file_free(clf_finddb_file *f);

const clf_device_identity *clf_finddb_file_device(const clf_finddb_file *f);

/* Keys in strcmp order; the pointer from key_at stays valid until the next change. */
int clf_finddb_file_key_count(clf_finddb_file *f);
const char *clf_finddb_file_key_at(clf_finddb_file *f, int i);

/* Entries of key, ranked as clf_finddb_lookup ranks them: copies at most max and
** returns the number copied (0 if absent). With out == NULL returns the count. */
int clf_finddb_file_get(clf_finddb_file *f, const char *key, clf_finddb_entry *out, int max);

/* Replaces (or adds) the record for key with n >= 1 entries, validated as
** clf_finddb_store validates them. 0, or -1 with a message. */
int clf_finddb_file_put(clf_finddb_file *f, const char *key, const clf_finddb_entry *e, int n,
                        char *err, size_t err_cap);

/* Removes key: 1 removed, 0 absent. */
int clf_finddb_file_remove(clf_finddb_file *f, const char *key);

/*
** Merges every record of src into dst. The devices must be equal
** (clf_finddb_identity_equal), else -1 with a message naming both and dst is
** unchanged. For a key in both, the record becomes the union of the entries,
** one per (solver, config): of two entries with the same solver and config the
** better ranked one is kept (a measurement before an estimate, then the smaller
** time; on a tie dst's). Returns the number of records added or changed, or -1.
*/
int clf_finddb_file_merge(clf_finddb_file *dst, const clf_finddb_file *src, char *err,
                          size_t err_cap);

/* The document as clfuse writes it: malloc'ed, NUL-terminated text (length in
** *len, may be NULL), or NULL on out-of-memory. */
char *clf_finddb_file_serialise(const clf_finddb_file *f, size_t *len);

#ifdef __cplusplus
}
#endif
#endif /* CLF_FINDDB_EDIT_H */
