/* clfuse-db: inspect, check, merge and edit find-db JSON files (docs/finddb.md).
 *
 *   clfuse-db list FILE             keys with their entry counts
 *   clfuse-db show FILE KEY         the entries of one key
 *   clfuse-db check FILE...         validate; exit 1 if any file has a problem
 *   clfuse-db merge OUT IN...       merge records into OUT (created if missing)
 *   clfuse-db delete FILE KEY       remove one record
 *
 * Writers (merge, delete) take the same lock as clfuse itself (flock on <file>.lock) and
 * replace the file atomically, so they are safe against a running clfuse using that file as
 * its user db. Exit status: 0 success, 1 a bad file or a refused operation, 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include "finddb/finddb.h"
#include "finddb/finddb_edit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ERR_CAP 4096

static void usage(void)
{
    fprintf(stderr,
            "usage: clfuse-db COMMAND ARGS\n"
            "commands:\n"
            "  list FILE          keys of a find-db file with their entry counts\n"
            "  show FILE KEY      entries of one key: solver, config, time, workspace, algorithm,\n"
            "                     provenance\n"
            "  check FILE...      validate files; exit 1 if any has a problem, printing why\n"
            "  merge OUT IN...    merge the records of the inputs into OUT (created if missing);\n"
            "                     per key, one entry per solver+config, the better time kept;\n"
            "                     every file must name the same device\n"
            "  delete FILE KEY    remove the record of KEY\n");
}

static void print_device(const clf_device_identity *d)
{
    printf("device: \"%s\" / \"%s\" / driver \"%s\" / %u CUs\n", d->vendor, d->name, d->driver,
           d->compute_units);
}

/* Loads a file; problems inside records go to stderr as warnings. NULL with a message. */
static clf_finddb_file *load(const char *path)
{
    char err[ERR_CAP], warn[ERR_CAP];
    clf_finddb_file *f = clf_finddb_file_load(path, warn, sizeof warn, err, sizeof err);
    if (!f) {
        fprintf(stderr, "clfuse-db: %s\n", err);
        return NULL;
    }
    if (warn[0])
        fprintf(stderr, "clfuse-db: warning: skipped invalid parts:\n%s", warn);
    return f;
}

static int cmd_list(int argc, char **argv)
{
    if (argc != 1) {
        usage();
        return 2;
    }
    clf_finddb_file *f = load(argv[0]);
    if (!f)
        return 1;
    print_device(clf_finddb_file_device(f));
    int n = clf_finddb_file_key_count(f);
    for (int i = 0; i < n; ++i) {
        const char *key = clf_finddb_file_key_at(f, i);
        printf("%s\t%d %s\n", key, clf_finddb_file_get(f, key, NULL, 0),
               clf_finddb_file_get(f, key, NULL, 0) == 1 ? "entry" : "entries");
    }
    printf("%d key%s\n", n, n == 1 ? "" : "s");
    clf_finddb_file_free(f);
    return 0;
}

static int cmd_show(int argc, char **argv)
{
    if (argc != 2) {
        usage();
        return 2;
    }
    clf_finddb_file *f = load(argv[0]);
    if (!f)
        return 1;
    int n = clf_finddb_file_get(f, argv[1], NULL, 0);
    clf_finddb_entry *e = malloc((size_t)(n ? n : 1) * sizeof *e);
    int rc = 0;
    if (!e) {
        fprintf(stderr, "clfuse-db: out of memory\n");
        rc = 1;
    } else if (n == 0) {
        fprintf(stderr, "clfuse-db: %s: no record for key \"%s\"\n", argv[0], argv[1]);
        rc = 1;
    } else {
        n = clf_finddb_file_get(f, argv[1], e, n);
        printf("%s: %d %s, best first\n", argv[1], n, n == 1 ? "entry" : "entries");
        printf("%-3s %-20s %-28s %12s %12s %-36s %s\n", "#", "solver", "config", "time_ms",
               "workspace", "algorithm", "provenance");
        for (int i = 0; i < n; ++i)
            printf("%-3d %-20s %-28s %12.4f%s %11llu %-36s %s\n", i, e[i].solver,
                   e[i].config[0] ? e[i].config : "(default)", e[i].time_ms,
                   e[i].time_ms < 0 ? "*" : " ", (unsigned long long)e[i].workspace, e[i].algorithm,
                   e[i].provenance[0] ? e[i].provenance : "-");
        if (n && e[n - 1].time_ms < 0)
            printf("* negative time: an estimate, not a measurement\n");
    }
    free(e);
    clf_finddb_file_free(f);
    return rc;
}

static int cmd_check(int argc, char **argv)
{
    if (argc < 1) {
        usage();
        return 2;
    }
    int bad = 0;
    for (int i = 0; i < argc; ++i) {
        char err[ERR_CAP];
        if (clf_finddb_check_file(argv[i], err, sizeof err) == 0) {
            printf("%s: OK\n", argv[i]);
        } else {
            size_t l = strlen(err);
            printf("%s: BAD\n%s%s", argv[i], err, l && err[l - 1] == '\n' ? "" : "\n");
            bad = 1;
        }
    }
    return bad;
}

/* Under <path>.lock: loads path (or starts from `fresh` when it does not exist and fresh is
 * not NULL), applies edit, and writes the result atomically if edit returns > 0.
 * edit returns > 0 to write, 0 for nothing to write, < 0 to refuse (it prints why). */
typedef int (*edit_fn)(clf_finddb_file **f, void *ctx);

static int locked_edit(const char *path, int create, edit_fn edit, void *ctx)
{
    char err[ERR_CAP], lock_path[4200];
    if (snprintf(lock_path, sizeof lock_path, "%s.lock", path) >= (int)sizeof lock_path) {
        fprintf(stderr, "clfuse-db: %s: path too long\n", path);
        return 1;
    }
    int fd = clf_finddb_lock(lock_path, CLF_FINDDB_LOCK_TIMEOUT_MS, err, sizeof err);
    if (fd < 0) {
        fprintf(stderr, "clfuse-db: cannot lock %s: %s\n", path, err);
        return 1;
    }
    int rc = 1;
    clf_finddb_file *f = NULL;
    char *buf;
    size_t len;
    int missing = 0;
    /* Probe existence the way clfuse reads files; a missing OUT is fine for merge. */
    if (clf_finddb_read_file(path, CLF_FINDDB_MAX_FILE_BYTES, &buf, &len, &missing, err,
                             sizeof err) == 0)
        free(buf);
    if (missing && !create) {
        fprintf(stderr, "clfuse-db: %s: no such file\n", path);
        goto out;
    }
    if (!missing && !(f = load(path))) {
        fprintf(stderr, "clfuse-db: refusing to overwrite %s, which is not a valid find-db\n",
                path);
        goto out;
    }
    int e = edit(&f, ctx);
    if (e < 0)
        goto out;
    if (e > 0) {
        char *text = clf_finddb_file_serialise(f, &len);
        if (!text) {
            fprintf(stderr, "clfuse-db: out of memory\n");
            goto out;
        }
        int w = clf_finddb_write_atomic(path, text, len, err, sizeof err);
        free(text);
        if (w != 0) {
            fprintf(stderr, "clfuse-db: cannot write %s: %s\n", path, err);
            goto out;
        }
    }
    rc = 0;
out:
    clf_finddb_file_free(f);
    clf_finddb_unlock(fd);
    return rc;
}

typedef struct merge_ctx {
    const char *out;
    int n_in;
    char **in;
} merge_ctx;

static int merge_edit(clf_finddb_file **dst, void *p)
{
    merge_ctx *m = p;
    int changed = 0;
    for (int i = 0; i < m->n_in; ++i) {
        clf_finddb_file *src = load(m->in[i]);
        if (!src)
            return -1;
        if (!*dst && !(*dst = clf_finddb_file_new(clf_finddb_file_device(src)))) {
            clf_finddb_file_free(src);
            fprintf(stderr, "clfuse-db: out of memory\n");
            return -1;
        }
        char err[ERR_CAP];
        int c = clf_finddb_file_merge(*dst, src, err, sizeof err);
        clf_finddb_file_free(src);
        if (c < 0) {
            fprintf(stderr, "clfuse-db: cannot merge %s into %s: %s; nothing written\n", m->in[i],
                    m->out, err);
            return -1;
        }
        changed += c;
    }
    printf("merged %d file%s into %s: %d key%s, %d added or changed\n", m->n_in,
           m->n_in == 1 ? "" : "s", m->out, clf_finddb_file_key_count(*dst),
           clf_finddb_file_key_count(*dst) == 1 ? "" : "s", changed);
    return 1; /* always written: a new OUT, or one rewritten without invalid parts */
}

static int cmd_merge(int argc, char **argv)
{
    if (argc < 2) {
        usage();
        return 2;
    }
    merge_ctx m = {argv[0], argc - 1, argv + 1};
    return locked_edit(argv[0], 1, merge_edit, &m);
}

static int delete_edit(clf_finddb_file **f, void *key)
{
    int r = clf_finddb_file_remove(*f, key);
    if (r < 0) {
        fprintf(stderr, "clfuse-db: out of memory\n");
        return -1;
    }
    if (r == 0) {
        fprintf(stderr, "clfuse-db: no record for key \"%s\"; nothing changed\n", (char *)key);
        return -1;
    }
    printf("deleted \"%s\" (%d key%s left)\n", (char *)key, clf_finddb_file_key_count(*f),
           clf_finddb_file_key_count(*f) == 1 ? "" : "s");
    return 1;
}

static int cmd_delete(int argc, char **argv)
{
    if (argc != 2) {
        usage();
        return 2;
    }
    return locked_edit(argv[0], 0, delete_edit, argv[1]);
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        usage();
        return argc < 2 ? 2 : 0;
    }
    const char *cmd = argv[1];
    argc -= 2;
    argv += 2;
    if (strcmp(cmd, "list") == 0)
        return cmd_list(argc, argv);
    if (strcmp(cmd, "show") == 0)
        return cmd_show(argc, argv);
    if (strcmp(cmd, "check") == 0)
        return cmd_check(argc, argv);
    if (strcmp(cmd, "merge") == 0)
        return cmd_merge(argc, argv);
    if (strcmp(cmd, "delete") == 0)
        return cmd_delete(argc, argv);
    fprintf(stderr, "clfuse-db: unknown command '%s'\n", cmd);
    usage();
    return 2;
}
