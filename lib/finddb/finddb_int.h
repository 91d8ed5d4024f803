/*
** finddb_int.h: what the files of lib/finddb share and nothing outside it uses. A second
** header in this folder because finddb.h is the layer's interface to the rest of the
** library and this one is the layer's insides: the record table, the warning sink, the JSON
** reader and writer, ranking and entry checks. Internal symbols take clf_fdb_.
**
**   finddb_sink.c        the warning sink (a caller buffer and/or the db's own copy)
**   finddb_rank.c        the order of entries, and the checks a stored record passes
**   finddb_table.c       the record table (key -> ranked entries)
**   finddb_json_read.c   the file format: reading and validating a file
**   finddb_json_write.c  building and printing documents
**   finddb_identity.c    device identity: equality, file base name, default user dir
**   finddb_store.c       the layered db object: open, look up, store under the lock
**   finddb_file.c        the file-system side: capped reads, locks, atomic replace
**   finddb_edit.c        one file as an editable document, for clfuse-db and tests
**                        (built apart from the library: see finddb_edit.h)
*/
#ifndef CLF_FINDDB_INT_H
#define CLF_FINDDB_INT_H

#include "core/util.h"
#include "finddb/finddb.h"

#include <cJSON.h>
#include <stddef.h>

/* ---- finddb_sink.c -------------------------------------------------------- */

/* Warning sink: a caller buffer and/or the db's own copy. */
typedef struct clf_fdb_sink {
    char *buf; /* caller buffer, may be NULL */
    size_t cap, len;
    int full;
    clf_strbuf *dyn; /* db->warn, may be NULL */
} clf_fdb_sink;

/* Per-file problem counter, so a file full of bad entries gives a few lines. */
typedef struct clf_fdb_filectx {
    clf_fdb_sink *s;
    const char *path;
    int problems;
} clf_fdb_filectx;

/* One line "finddb: <path>: <message>\n" into the sink (s may be NULL). */
void clf_fdb_sink_line(clf_fdb_sink *s, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A problem of the file: counted, and reported while few. */
void clf_fdb_problem(clf_fdb_filectx *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Reports how many problems were not. */
void clf_fdb_problems_done(clf_fdb_filectx *f);

/* ---- finddb_rank.c -------------------------------------------------------- */

/* Measured (time >= 0) ascending, then estimates nearest zero first. */
int clf_fdb_rank_cmp(const clf_finddb_entry *a, const clf_finddb_entry *b);
/* Stable sort by clf_fdb_rank_cmp. 0, or -1 on OOM. */
int clf_fdb_rank_sort(clf_finddb_entry *e, int n);
/* The checks of clf_finddb_store and clf_finddb_file_put: 0, or -1 with a message. */
int clf_fdb_check_key(const char *key, char *err, size_t err_cap);
int clf_fdb_check_entries(const clf_finddb_entry *e, int n, char *err, size_t err_cap);

/* ---- finddb_table.c ------------------------------------------------------- */

/* Record table: open addressing, linear probing, no deletion (user tables
** are rebuilt from the file on every store/remove). */
typedef struct clf_fdb_rec {
    char *key;
    clf_finddb_entry *e;
    int n;
} clf_fdb_rec;

typedef struct clf_fdb_table {
    clf_fdb_rec *slot;
    size_t cap, count;
} clf_fdb_table;

clf_fdb_rec *clf_fdb_table_get(const clf_fdb_table *t, const char *key);
void clf_fdb_table_free(clf_fdb_table *t);
/* Takes e; 1 inserted, 0 already present (first wins, e freed), -1 OOM (e freed). */
int clf_fdb_table_put(clf_fdb_table *t, const char *key, clf_finddb_entry *e, int n);
/* Moves the records dst lacks from src to dst. 0, or -1 on OOM. */
int clf_fdb_table_merge(clf_fdb_table *dst, clf_fdb_table *src);
/* qsort comparator for an array of C strings. */
int clf_fdb_str_cmp_p(const void *a, const void *b);

/* ---- finddb_json_read.c --------------------------------------------------- */

/* What clf_fdb_parse_file found. */
enum { PF_OK, PF_MISSING, PF_BAD, PF_OTHER_DEVICE, PF_LEAVE };

/* The top level of a document: 0 ok, -1 bad, -2 written by a newer version (why). */
int clf_fdb_check_header(const cJSON *root, clf_device_identity *fdev, char *why, size_t why_cap);
/* Reads, parses and checks one file (PF_*; dev NULL: any device). */
int clf_fdb_parse_file(const char *path, const clf_device_identity *dev, cJSON **root, char *why,
                       size_t why_cap);
/* The same, and the file's own device (when its header was read: PF_OK, PF_OTHER_DEVICE)
** into file_dev (may be NULL). */
int clf_fdb_parse_file_id(const char *path, const clf_device_identity *dev, cJSON **root,
                          clf_device_identity *file_dev, char *why, size_t why_cap);
/* The "records" of a checked document into t; prune deletes bad ones from root. 0 or -1 OOM. */
int clf_fdb_load_records(cJSON *root, clf_fdb_table *t, clf_fdb_filectx *f, int prune);

/* ---- finddb_json_write.c -------------------------------------------------- */

cJSON *clf_fdb_entry_json(const clf_finddb_entry *e);
/* records[key] = the entries, ranked (added or replaced). 0, or -1 on OOM (unchanged). */
int clf_fdb_put_record(cJSON *recs, const char *key, const clf_finddb_entry *entries, int n);
/* An empty document for dev. */
cJSON *clf_fdb_new_doc(const clf_device_identity *dev);
/* The document as clfuse writes it; malloc'ed, or NULL on OOM. */
char *clf_fdb_doc_print(const cJSON *doc, size_t *len);

#endif /* CLF_FINDDB_INT_H */
