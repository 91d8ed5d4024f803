/*
** finddb: the layered JSON find-db (system files read-only, one user file writable).
**
** A find-db maps a canonical problem key (see lib/desc) to a ranked list of
** solver results {solver, config, time, workspace, algorithm, provenance}.
** System dbs are shipped *.json files; the user db is
**   <user_dir>/<clf_finddb_basename(dev)>.ufdb.json
** and a user record replaces the system record for the same key (as in MIOpen).
**
** The file format is documented at the top of finddb_json_read.c, locking and
** corruption handling at the top of finddb_store.c and finddb_file.c, and all
** three in docs/finddb.md. finddb_int.h lists the files of this folder.
**
** Thread safety: one clf_finddb may be used from several threads; lookup, store,
** remove and the counters are serialised by a mutex inside the object. Pointers
** returned by clf_finddb_key_at, clf_finddb_warnings and clf_finddb_user_path
** stay valid only until the next store/remove/close on that object.
**
** Plain C11 plus POSIX; no OpenCL, no miopen.h.
*/
#ifndef CLF_FINDDB_H
#define CLF_FINDDB_H

#include "core/limits.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Format identifiers written into, and required from, every file. */
#define CLF_FINDDB_FORMAT "clfuse-finddb"
#define CLF_FINDDB_VERSION 1
/* Files larger than this are rejected without being parsed. */
#define CLF_FINDDB_MAX_FILE_BYTES (64u * 1024u * 1024u)
/* Longest problem key accepted (bytes, without the terminating NUL). */
#define CLF_FINDDB_MAX_KEY 4096
/* Default bounded wait for the user-db lock, in milliseconds. */
#define CLF_FINDDB_LOCK_TIMEOUT_MS 30000
/* Largest workspace that JSON numbers (doubles) carry exactly: 2^53. */
#define CLF_FINDDB_MAX_WORKSPACE 9007199254740992ull

typedef struct clf_device_identity {
    char vendor[CLF_DEVICE_STRING_CAP];
    char name[CLF_DEVICE_STRING_CAP];
    char driver[CLF_DRIVER_STRING_CAP];
    unsigned compute_units;
} clf_device_identity;

typedef struct clf_finddb_entry {
    char solver[CLF_SOLVER_NAME_CAP];       /* solver name, stable */
    char config[CLF_CONFIG_CAP];            /* solver-specific tuning string, "" = default */
    double time_ms;                         /* measured time; negative = estimate */
    uint64_t workspace;                     /* bytes */
    char algorithm[CLF_ALGORITHM_NAME_CAP]; /* e.g. "miopenConvolutionFwdAlgoDirect" */
    char provenance[CLF_PROVENANCE_CAP];    /* "find", "exhaustive", "system" ... */
} clf_finddb_entry;

typedef struct clf_finddb clf_finddb;

/*
** Opens the layered db for one device. Every *.json file in system_dir (may be
** NULL; a missing directory is not a problem) whose "device" matches the
** identity exactly (vendor, name, driver strings; compute units equal) is loaded
** read-only, in byte order of file name; when several system files hold the same
** key, the first one wins. When no file matches exactly, the files of the same
** device (clf_finddb_same_device) under the nearest other driver (the newest one not
** above this driver, else the oldest above it) are loaded instead
** (clf_finddb_system_note). Then the user file (user_dir/<basename>.ufdb.json) is
** loaded if it exists.
**
** Never fails on bad files: each problem (unreadable, too big, truncated,
** garbage, wrong format/version/device, wrong types) is appended to `warnings`
** as one line "finddb: <file>: <problem>" (the buffer is always NUL-terminated
** when warnings_cap > 0; overflow is marked with "..."). A user file with a
** file-level problem is renamed aside to <file>.corrupt-<unix time> (under the
** lock, after re-checking it) so that the next store starts clean. Bad entries
** or records inside an otherwise valid file are skipped with a warning; the
** file is kept and the next store rewrites it without them.
**
** Returns NULL only on out-of-memory (or dev == NULL). user_dir may be NULL:
** then the db is read-only and store/remove fail with a message.
*/
clf_finddb *clf_finddb_open(const clf_device_identity *dev, const char *system_dir,
                            const char *user_dir, char *warnings, size_t warnings_cap);

/* Frees everything; accepts NULL. */
void clf_finddb_close(clf_finddb *db);

/*
** Entries for a problem key, the user record replacing the system record, sorted:
** non-negative times ascending first, then negative times nearest zero first
** (ties keep file order). Copies at most max entries to out and returns the
** number copied (0 when the key is absent or max <= 0 / out == NULL).
** *found_in (if found_in != NULL) is set to "user", "system" or NULL.
*/
int clf_finddb_lookup(clf_finddb *db, const char *key, clf_finddb_entry *out, int max,
                      const char **found_in);

/* Entries of one layer only (system_layer 1: the shipped files; 0: the user file), ranked
** as lookup ranks them, so a caller can weigh a user record against the system record it
** hides. Copies at most max; with out == NULL returns the count. */
int clf_finddb_lookup_layer(clf_finddb *db, const char *key, int system_layer,
                            clf_finddb_entry *out, int max);

/* Number of entries lookup would return for key with an unbounded max (0 if absent). */
int clf_finddb_entry_count(clf_finddb *db, const char *key);

/*
** Replaces the user record for key with these n >= 1 entries. Under an exclusive
** advisory lock (flock on <user file>.lock, bounded wait, see
** clf_finddb_set_lock_timeout) the current user file is re-read, so entries that
** other processes wrote in the meantime are kept; the key is replaced; the
** result is written to <user file>.tmp in the same directory, fsync'ed and
** renamed over the user file (then the directory is fsync'ed). Creates user_dir
** (mkdir -p) if needed. Entries are validated first (NUL-terminated fields,
** non-empty solver, finite time, workspace <= 2^53); nothing is written if one is
** invalid. The in-memory user view is replaced by what was written.
** Returns 0 on success, -1 with a message in err (err may be NULL).
*/
int clf_finddb_store(clf_finddb *db, const char *key, const clf_finddb_entry *entries, int n,
                     char *err, size_t err_cap);

/* Deletes a key from the user db (same locking and rewrite as store).
** Returns 1 if removed, 0 if absent (nothing written), -1 on error with a message. */
int clf_finddb_remove(clf_finddb *db, const char *key, char *err, size_t err_cap);

/*
** Filesystem-safe base name from the identity: "<name>_<cu>cu_<driver>", e.g.
** "NVIDIA_H100_80GB_HBM3_132cu_580.159.04". Characters outside [A-Za-z0-9._-]
** become '_', runs of '_' collapse, name part capped at 80 and driver part at 40
** bytes, a leading '.' becomes '_', an empty name becomes "unknown". Always
** NUL-terminated (truncated to cap - 1) when cap > 0.
*/
void clf_finddb_basename(const clf_device_identity *dev, char *out, size_t cap);

/*
** Default user dir: $MIOPEN_USER_DB_PATH if set and non-empty, else
** $XDG_CONFIG_HOME/clfuse (if absolute), else $HOME/.config/clfuse, else
** /tmp/clfuse-<uid>. Truncated to cap - 1 bytes.
*/
void clf_finddb_default_user_dir(char *out, size_t cap);

/* Iteration for tools: number of keys in the merged (user + system) view, and
** the i-th key in strcmp order (NULL if i is out of range). */
int clf_finddb_key_count(clf_finddb *db);
const char *clf_finddb_key_at(clf_finddb *db, int i);

/* ---- additions ---------------------------------------------------------- */

/* Bounded wait for the user-db lock in store/remove (default
** CLF_FINDDB_LOCK_TIMEOUT_MS; values < 0 mean the default). */
void clf_finddb_set_lock_timeout(clf_finddb *db, int timeout_ms);

/* Full path of the user file ("" when user_dir was NULL). */
const char *clf_finddb_user_path(clf_finddb *db);

/* "" when the system records loaded are this device's own (or there are none); otherwise one
** line naming the other driver whose files of the same device (vendor, name, compute units)
** were loaded because none matched this driver. Owned by db. */
const char *clf_finddb_system_note(const clf_finddb *db);

/* Warnings accumulated since open (open, and re-reads done by store/remove), one
** per line; "" if none. Owned by db. */
const char *clf_finddb_warnings(clf_finddb *db);

/* True if two identities name the same device (strings equal, compute units equal). */
int clf_finddb_identity_equal(const clf_device_identity *a, const clf_device_identity *b);
/* The same but for the driver: vendor and name strings equal, compute units equal. */
int clf_finddb_same_device(const clf_device_identity *a, const clf_device_identity *b);

/* ---- file helpers (finddb_file.c), shared with tools ---------------------- */

/* Reads a whole regular file of at most max_bytes into a NUL-terminated malloc'ed
** buffer. Returns 0 and sets *buf and *len; -1 with errno-based message in err. If the
** file does not exist, returns -1 with *missing = 1 (missing may be NULL). */
int clf_finddb_read_file(const char *path, size_t max_bytes, char **buf, size_t *len, int *missing,
                         char *err, size_t err_cap);

/* The same, telling what was found: a missing file (or folder); one that exists but cannot
** be used as it is (not a regular file: a directory, FIFO, socket or device; no permission;
** a read error; out of memory), which callers leave alone; or one over max_bytes. */
enum {
    CLF_FINDDB_READ_OK = 0,
    CLF_FINDDB_READ_MISSING,
    CLF_FINDDB_READ_UNUSABLE,
    CLF_FINDDB_READ_TOO_BIG
};
int clf_finddb_read_file_ex(const char *path, size_t max_bytes, char **buf, size_t *len, int *what,
                            char *err, size_t err_cap);

/* "a directory", "a FIFO", ... for a st_mode, for messages. */
const char *clf_finddb_file_type(unsigned mode);

/* Takes an exclusive flock on lock_path (created if needed), polling for at most
** timeout_ms. Returns the lock fd (>= 0) or -1 with a message. */
int clf_finddb_lock(const char *lock_path, int timeout_ms, char *err, size_t err_cap);
void clf_finddb_unlock(int fd);

/* Writes data to <path>.tmp, fsyncs it, renames it over path and fsyncs the
** directory. The caller holds the lock. 0 or -1 with a message (path untouched). */
int clf_finddb_write_atomic(const char *path, const char *data, size_t len, char *err,
                            size_t err_cap);

/* Renames path to <path>.corrupt-<unix time>[-N]; the new name goes to aside.
** 0 or -1 with a message. */
int clf_finddb_set_aside(const char *path, char *aside, size_t aside_cap, char *err,
                         size_t err_cap);

#ifdef __cplusplus
}
#endif
#endif /* CLF_FINDDB_H */
