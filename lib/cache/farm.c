/* Worker processes that build programs into the on-disk cache (farm.h): this process's side,
 * and the worker's loop (clf_farm_serve). */
#define _GNU_SOURCE /* dladdr */
#include "cache/farm.h"
#include "cache/program.h"
#include "clw/clw.h"
#include "core/alloc.h"
#include "core/util.h"
#include "finddb/finddb.h"

#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define MAX_WORKERS 32
#define WORKER_NAME "clfuse-build-worker"

/* The handle's workers: one socket each (this process's end), over which a batch's
 * directory name goes; the worker's stdin is the other end. */
struct clf_farm_pool {
    pthread_mutex_t lock;
    char dir[PATH_MAX];
    int slots;
    pid_t pid[MAX_WORKERS];
    int sock[MAX_WORKERS];
    int alive[MAX_WORKERS];
    unsigned batches;
};

struct clf_farm {
    clf_farm_pool *pool;
    char dir[PATH_MAX];
    int n;
    int nworkers;
    int done_by_workers;
    int warmed_by_workers;
};

/* ---- files of the job directory ---- */

static int job_path(char *out, size_t cap, const char *dir, int i, const char *ext)
{
    int w =
        i < 0 ? snprintf(out, cap, "%s/%s", dir, ext) : snprintf(out, cap, "%s/%d.%s", dir, i, ext);
    return w > 0 && (size_t)w < cap ? 0 : -1;
}

/* Writes a whole file through a temporary name, so that a reader never sees part of it. */
static int write_file(const char *dir, int i, const char *ext, const char *data, size_t len)
{
    char path[PATH_MAX], tmp[PATH_MAX];
    if (job_path(path, sizeof path, dir, i, ext) != 0 ||
        snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid()) >= (int)sizeof tmp)
        return -1;
    FILE *f = fopen(tmp, "wb");
    if (f == NULL)
        return -1;
    int ok = fwrite(data, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* The whole file, NUL-terminated (malloc'ed), or NULL: the find-db's reader, which also
 * refuses anything but a regular file. */
static char *read_file(const char *dir, int i, const char *ext)
{
    enum { MAX_JOB_FILE = 64 << 20 }; /* far above any generated program */
    char path[PATH_MAX], err[256];
    char *buf = NULL;
    size_t len = 0;
    if (job_path(path, sizeof path, dir, i, ext) != 0 ||
        clf_finddb_read_file(path, MAX_JOB_FILE, &buf, &len, NULL, err, sizeof err) != 0)
        return NULL;
    return buf;
}

static int exists(const char *dir, int i, const char *ext)
{
    char path[PATH_MAX];
    return job_path(path, sizeof path, dir, i, ext) == 0 && access(path, F_OK) == 0;
}

/* Removes dir and what is in it, one level of directories deep (the pool's batches). */
static void remove_dir(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char path[PATH_MAX];
            if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path)
                continue;
            if (unlink(path) != 0 && errno == EISDIR && depth > 0)
                remove_dir(path, depth - 1);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* O_EXCL makes exactly one process the builder of job i; the file holds its pid. 1 when it
 * is this process, 0 when another one has it, -1 on any other error (this process builds the
 * job then, a worker leaves the batch: a job built twice costs time, a job built by nobody
 * would cost the candidate). */
static int claim(const char *dir, int i)
{
    char path[PATH_MAX];
    if (job_path(path, sizeof path, dir, i, "claim") != 0)
        return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
        return errno == EEXIST ? 0 : -1;
    char pid[32];
    int w = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    ssize_t wrote = write(fd, pid, (size_t)w);
    (void)wrote; /* an empty claim reads as a worker still starting it */
    close(fd);
    return 1;
}

/* ---- this process's side ---- */

static int executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The level of a warning that there are no workers: a warning the first time in a process,
 * info after (every Find of a network would repeat it, now that PoCL starts workers too). */
static int once_a_process(void)
{
    static atomic_int warned;
    return atomic_exchange(&warned, 1) ? CLF_LOG_INFO : CLF_LOG_WARNING;
}

/* The worker beside the code that holds this function (libclfuse.so, or the executable it is
 * linked into), in the build tree's layouts or the installed one. */
static int find_worker(char *out, size_t cap)
{
    const char *env = getenv("CLFUSE_BUILD_WORKER");
    if (env && *env) {
        if (!executable(env)) {
            clf_log(once_a_process(),
                    "CLFUSE_BUILD_WORKER=%s is not an executable file: building in this "
                    "process only",
                    env);
            return -1;
        }
        clf_strlcpy(out, env, cap);
        return 0;
    }
    char here[PATH_MAX] = "";
    Dl_info info;
    if (dladdr((void *)&clf_farm_start, &info) != 0 && info.dli_fname != NULL &&
        strchr(info.dli_fname, '/') != NULL)
        clf_strlcpy(here, info.dli_fname, sizeof here);
    else {
        ssize_t len = readlink("/proc/self/exe", here, sizeof here - 1);
        here[len > 0 ? len : 0] = '\0';
    }
    char *slash = strrchr(here, '/');
    if (slash != NULL) {
        *slash = '\0';
        static const char *const rel[] = {"", "/../lib", "/../../lib", "/../libexec/clfuse"};
        for (size_t r = 0; r < sizeof rel / sizeof rel[0]; ++r) {
            int w = snprintf(out, cap, "%s%s/%s", here, rel[r], WORKER_NAME);
            if (w > 0 && (size_t)w < cap && executable(out))
                return 0;
        }
    }
#ifdef CLFUSE_INSTALL_LIBEXEC_DIR
    int w = snprintf(out, cap, "%s/%s", CLFUSE_INSTALL_LIBEXEC_DIR, WORKER_NAME);
    if (w > 0 && (size_t)w < cap && executable(out))
        return 0;
#endif
    return -1;
}

long clf_farm_default_processes(int pays, long online, int whole)
{
    const long cap = whole ? 16 : 8;
    if (!pays)
        return 1;
    return online < 1 ? 1 : online > cap ? cap : online;
}

/* CLFUSE_BUILD_PROCESSES, else the default of farm.h. */
static long build_processes(miopenHandle_t h, int whole)
{
    long dflt = clf_farm_default_processes(clf_device_is_nvidia(&h->info) || clf_warm_wanted(h),
                                           clf_online_processors(16), whole);
    long level = clf_env_long("CLFUSE_BUILD_PROCESSES", dflt);
    return level < 1 ? 1 : level;
}

/* Marks workers that exited (reaped here) as gone and returns how many still run. Under
 * pool->lock. */
static int reap(clf_farm_pool *p)
{
    int running = 0;
    for (int k = 0; k < p->slots; ++k) {
        if (!p->alive[k])
            continue;
        int status;
        pid_t r = waitpid(p->pid[k], &status, WNOHANG);
        if (r == p->pid[k] || (r < 0 && errno == ECHILD)) { /* ECHILD: SIGCHLD ignored */
            p->alive[k] = 0;
            if (p->sock[k] >= 0)
                close(p->sock[k]);
            p->sock[k] = -1;
        } else {
            ++running;
        }
    }
    return running;
}

/* Starts a worker in a free slot. Under pool->lock. */
static int spawn_worker(clf_farm_pool *p, const char *exe)
{
    int k = 0;
    while (k < p->slots && p->alive[k])
        ++k;
    if (k == MAX_WORKERS)
        return -1;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        clf_log(CLF_LOG_WARNING, "build workers: socketpair: %s", strerror(errno));
        return -1;
    }
    char log[PATH_MAX + 32];
    snprintf(log, sizeof log, "%s/worker%d.log", p->dir, k);
    posix_spawn_file_actions_t fa;
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc == 0) {
        posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
        posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0600);
        posix_spawn_file_actions_adddup2(&fa, 1, 2);
        char *argv[] = {(char *)exe, p->dir, NULL};
        pid_t pid;
        rc = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        if (rc == 0) {
            p->pid[k] = pid;
            p->sock[k] = sv[0];
            p->alive[k] = 1;
            if (k == p->slots)
                ++p->slots;
        }
    }
    close(sv[1]);
    if (rc != 0) {
        close(sv[0]);
        clf_log(CLF_LOG_WARNING, "build workers: cannot start %s: %s", exe, strerror(rc));
        return -1;
    }
    return 0;
}

/* The handle's pool with its directory and device file, made on first use; NULL when that
 * fails (logged). */
static clf_farm_pool *get_pool(miopenHandle_t h)
{
    pthread_mutex_lock(&h->lock);
    clf_farm_pool *p = h->farm_pool;
    if (p == NULL && (p = clf_calloc(1, sizeof *p)) != NULL) {
        const char *tmp = getenv("TMPDIR");
        if (tmp == NULL || *tmp != '/')
            tmp = "/tmp";
        char device[1024];
        const clfuse_DeviceInfo *i = &h->info;
        int w = snprintf(device, sizeof device, "%s\n%s\n%s\n", i->platform_version, i->name,
                         i->driver_version);
        int ok =
            snprintf(p->dir, sizeof p->dir, "%s/clfuse-build-XXXXXX", tmp) < (int)sizeof p->dir &&
            mkdtemp(p->dir) != NULL;
        if (!ok)
            clf_log(CLF_LOG_WARNING, "build workers: cannot make a directory in %s: %s", tmp,
                    strerror(errno));
        else if (w <= 0 || (size_t)w >= sizeof device ||
                 write_file(p->dir, -1, "device", device, (size_t)w) != 0) {
            clf_log(CLF_LOG_WARNING, "build workers: cannot write into %s: %s", p->dir,
                    strerror(errno));
            remove_dir(p->dir, 0);
            ok = 0;
        }
        if (ok && pthread_mutex_init(&p->lock, NULL) == 0)
            h->farm_pool = p;
        else {
            if (ok)
                remove_dir(p->dir, 0);
            clf_free(p);
            p = NULL;
        }
    }
    pthread_mutex_unlock(&h->lock);
    return p;
}

static int write_batch(const clf_farm *f, const clf_farm_job *jobs)
{
    if (mkdir(f->dir, 0700) != 0)
        return -1;
    for (int j = 0; j < f->n; ++j) {
        char opt[4096];
        int o = snprintf(opt, sizeof opt, "%s\n%d\n%s\n", jobs[j].options,
                         jobs[j].min_groups_per_cu, jobs[j].what);
        if (o <= 0 || (size_t)o >= sizeof opt ||
            write_file(f->dir, j, "src", jobs[j].source, strlen(jobs[j].source)) != 0 ||
            write_file(f->dir, j, "opt", opt, (size_t)o) != 0)
            return -1;
        /* A launch that does not format is not warmed: the worker only builds. */
        char warm[CLF_WARM_TEXT_CAP];
        if (jobs[j].warm && clf_warm_format(jobs[j].warm, warm, sizeof warm) == 0 &&
            write_file(f->dir, j, "warm", warm, strlen(warm)) != 0)
            return -1;
    }
    /* Last: a worker that finds the count finds every job. */
    char count[32];
    int w = snprintf(count, sizeof count, "%d\n", f->n);
    return write_file(f->dir, -1, "count", count, (size_t)w);
}

clf_farm *clf_farm_start(miopenHandle_t h, const clf_farm_job *jobs, int n, int whole)
{
    long level = build_processes(h, whole);
    if (level < 2 || n < 2 || !(clf_program_disk_cache_on(h) || clf_warm_wanted(h)))
        return NULL;
    char exe[PATH_MAX];
    if (find_worker(exe, sizeof exe) != 0) {
        clf_log(once_a_process(),
                "%s not found (beside libclfuse, or CLFUSE_BUILD_WORKER): building %d programs "
                "in this process only",
                WORKER_NAME, n);
        return NULL;
    }
    clf_farm_pool *p = get_pool(h);
    clf_farm *f = p ? clf_calloc(1, sizeof *f) : NULL;
    if (f == NULL)
        return NULL;
    f->pool = p;
    f->n = n;
    pthread_mutex_lock(&p->lock);
    unsigned batch = p->batches++;
    pthread_mutex_unlock(&p->lock);
    char name[32];
    snprintf(name, sizeof name, "b%u", batch);
    if (snprintf(f->dir, sizeof f->dir, "%s/%s", p->dir, name) >= (int)sizeof f->dir ||
        write_batch(f, jobs) != 0) {
        clf_log(CLF_LOG_WARNING, "build workers: cannot write the jobs into %s: %s", f->dir,
                strerror(errno));
        remove_dir(f->dir, 0);
        clf_free(f);
        return NULL;
    }
    long want = level - 1 < n - 1 ? level - 1 : n - 1;
    if (want > MAX_WORKERS)
        want = MAX_WORKERS;
    char line[40];
    int len = snprintf(line, sizeof line, "%s\n", name);
    pthread_mutex_lock(&p->lock);
    int started = reap(p);
    while (started < want && spawn_worker(p, exe) == 0)
        ++started;
    /* Every worker hears of every batch; more than `want` of them only share it. */
    for (int k = 0; k < p->slots; ++k)
        if (p->alive[k] && send(p->sock[k], line, (size_t)len, MSG_NOSIGNAL) == len)
            ++f->nworkers;
    pthread_mutex_unlock(&p->lock);
    if (f->nworkers == 0) {
        remove_dir(f->dir, 0);
        clf_free(f);
        return NULL;
    }
    clf_log(CLF_LOG_INFO, "build workers: %d processes for %d programs (%s)", f->nworkers, n,
            f->dir);
    return f;
}

int clf_farm_workers(const clf_farm *f)
{
    return f ? f->nworkers : 0;
}

int clf_farm_done_by_workers(const clf_farm *f)
{
    return f ? f->done_by_workers : 0;
}

int clf_farm_warmed_by_workers(const clf_farm *f)
{
    return f ? f->warmed_by_workers : 0;
}

int clf_farm_claim(clf_farm *f, int i)
{
    return claim(f->dir, i) != 0;
}

int clf_farm_taken(const clf_farm *f, int i)
{
    return exists(f->dir, i, "claim");
}

/* Whether worker pid is still running (a reaped or unknown one is not). */
static int worker_alive(clf_farm_pool *p, long pid)
{
    pthread_mutex_lock(&p->lock);
    reap(p);
    int alive = 0;
    for (int k = 0; k < p->slots; ++k)
        if ((long)p->pid[k] == pid && p->alive[k])
            alive = 1;
    pthread_mutex_unlock(&p->lock);
    return alive;
}

clf_farm_outcome clf_farm_wait(clf_farm *f, int i, double deadline_ms, char *why, size_t cap)
{
    const double start = clf_now_ms();
    for (;;) {
        char *done = read_file(f->dir, i, "done");
        if (done != NULL) {
            ++f->done_by_workers;
            clf_farm_outcome o = CLF_FARM_BUILT;
            if (strncmp(done, "ok\nwarmed", 9) == 0)
                ++f->warmed_by_workers;
            if (strncmp(done, "ok", 2) != 0) {
                const char *msg = strchr(done, '\n');
                clf_strlcpy(why, msg ? msg + 1 : "the worker's build failed", cap);
                o = CLF_FARM_FAILED;
            }
            clf_free(done);
            return o;
        }
        char *owner = read_file(f->dir, i, "claim");
        long pid = owner ? strtol(owner, NULL, 10) : 0;
        clf_free(owner);
        /* Not yet written (pid 0) means a worker is between open and write. */
        if (pid > 0 && !worker_alive(f->pool, pid) && !exists(f->dir, i, "done"))
            return CLF_FARM_MINE;
        const double now = clf_now_ms();
        if (deadline_ms > 0 && now > deadline_ms)
            return CLF_FARM_LATE;
        if (now - start > CLF_FARM_STALL_MS) {
            clf_log(CLF_LOG_WARNING,
                    "build workers: program %d unfinished after %.0f s; building it here", i,
                    CLF_FARM_STALL_MS / 1000);
            pthread_mutex_lock(&f->pool->lock);
            for (int k = 0; k < f->pool->slots; ++k)
                if ((long)f->pool->pid[k] == pid && f->pool->alive[k])
                    kill(f->pool->pid[k], SIGKILL);
            pthread_mutex_unlock(&f->pool->lock);
            return CLF_FARM_MINE;
        }
        clf_sleep_ms(2);
    }
}

void clf_farm_close(clf_farm *f)
{
    if (f != NULL && !exists(f->dir, -1, "stop"))
        write_file(f->dir, -1, "stop", "", 0);
}

void clf_farm_finish(clf_farm *f)
{
    if (f == NULL)
        return;
    clf_farm_close(f);
    /* A worker still in one of its builds writes into the directory after this; what is left
     * goes with the pool's directory. */
    remove_dir(f->dir, 0);
    clf_free(f);
}

unsigned clf_farm_batches(miopenHandle_t h)
{
    pthread_mutex_lock(&h->lock);
    clf_farm_pool *p = h->farm_pool;
    unsigned n = 0;
    if (p) {
        pthread_mutex_lock(&p->lock);
        n = p->batches;
        pthread_mutex_unlock(&p->lock);
    }
    pthread_mutex_unlock(&h->lock);
    return n;
}

void clf_farm_pool_destroy(miopenHandle_t h)
{
    clf_farm_pool *p = h->farm_pool;
    if (p == NULL)
        return;
    h->farm_pool = NULL;
    /* A closed socket ends a worker once its build (if any) is done; one still building
     * after a moment is stopped, the cache's stores being atomic (cache.h). */
    for (int k = 0; k < p->slots; ++k)
        if (p->alive[k]) {
            close(p->sock[k]);
            p->sock[k] = -1;
        }
    const double start = clf_now_ms();
    while (reap(p) > 0) {
        if (clf_now_ms() - start > 200) {
            for (int k = 0; k < p->slots; ++k)
                if (p->alive[k]) {
                    kill(p->pid[k], SIGKILL);
                    int status;
                    while (waitpid(p->pid[k], &status, 0) < 0 && errno == EINTR)
                        ;
                    p->alive[k] = 0;
                }
            break;
        }
        clf_sleep_ms(2);
    }
    remove_dir(p->dir, 1);
    pthread_mutex_destroy(&p->lock);
    clf_free(p);
}

/* ---- the worker's side ---- */

static int serve_fail(const char *dir, const char *what)
{
    fprintf(stderr, "%s %s: %s\n", WORKER_NAME, dir, what);
    return 1;
}

/* Runs job i's warm launch (its .warm file) on prog; 1 when it ran. The build stands whatever
 * happens here: a launch that fails now fails again, with its message, where the Find runs
 * the program; the worker's log says why. */
static int serve_warm(miopenHandle_t h, const char *dir, int i, const char *what, cl_program prog)
{
    char *text = read_file(dir, i, "warm");
    if (text == NULL)
        return 0;
    clf_warm_launch w;
    int ok = 0;
    if (clf_warm_parse(text, &w) != 0) {
        fprintf(stderr, "%s: %s: its launch description is malformed; built, not launched\n",
                WORKER_NAME, what);
    } else {
        cl_int err = clf_warm_run(h, prog, &w);
        if (err == CL_SUCCESS)
            ok = 1;
        else
            fprintf(stderr, "%s: %s: its first launch: %s\n", WORKER_NAME, what,
                    clf_cl_error_name(err));
    }
    clf_free(text);
    return ok;
}

/* One batch: its unclaimed jobs in order, until none is left or the batch stops. */
static void serve_batch(miopenHandle_t h, const char *dir)
{
    char *count = read_file(dir, -1, "count");
    int n = count ? atoi(count) : 0;
    clf_free(count);
    const int crash_test = clf_env_long("CLFUSE_BUILD_WORKER_TEST_CRASH", 0) != 0;
    for (int i = 0; i < n && !exists(dir, -1, "stop"); ++i) {
        int mine = claim(dir, i);
        if (mine < 0)
            return; /* the batch is gone */
        if (mine == 0)
            continue;
        if (crash_test)
            abort(); /* tests: a worker lost with a job claimed */
        char *src = read_file(dir, i, "src");
        char *opt = read_file(dir, i, "opt");
        /* opt: options, occupancy hint, name, one a line */
        char *options = opt, *hint = NULL, *what = NULL;
        if (opt && (hint = strchr(opt, '\n')) != NULL) {
            *hint++ = '\0';
            if ((what = strchr(hint, '\n')) != NULL) {
                *what++ = '\0';
                what[strcspn(what, "\n")] = '\0';
            }
        }
        char result[CLF_ERRMSG_CAP + 8] = "ok\n";
        if (src == NULL || what == NULL) {
            snprintf(result, sizeof result, "fail\nthe job files of program %d are unreadable", i);
        } else {
            cl_program prog = NULL;
            if (clf_program_get(h, what, src, options, atoi(hint), &prog, NULL) ==
                miopenStatusSuccess) {
                if (serve_warm(h, dir, i, what, prog))
                    clf_strlcpy(result, "ok\nwarmed\n", sizeof result);
                clf_clw_release_program(prog);
            } else {
                snprintf(result, sizeof result, "fail\n%s", clf_thread_errmsg());
            }
        }
        clf_free(src);
        clf_free(opt);
        write_file(dir, i, "done", result, strlen(result));
    }
}

int clf_farm_serve(const char *dir)
{
    char *dev = read_file(dir, -1, "device");
    if (dev == NULL)
        return serve_fail(dir, "no device file");
    char *line[3] = {NULL};
    char *p = dev;
    for (int l = 0; l < 3 && p; ++l) {
        line[l] = p;
        p = strchr(p, '\n');
        if (p)
            *p++ = '\0';
    }
    clf_device_candidate c;
    miopenHandle_t h = NULL;
    if (line[2] == NULL ||
        clf_device_find_identity(line[0], line[1], line[2], &c) != miopenStatusSuccess ||
        clf_handle_create_on(&h, &c, WORKER_NAME) != miopenStatusSuccess) {
        char msg[CLF_ERRMSG_CAP + 64];
        snprintf(msg, sizeof msg, "cannot open the device: %s", clf_thread_errmsg());
        clf_free(dev);
        return serve_fail(dir, msg);
    }
    clf_free(dev);
    const long idle_ms = 1000 * clf_env_long("CLFUSE_BUILD_WORKER_IDLE_S", 10);
    char buf[512];
    size_t have = 0;
    for (;;) {
        struct pollfd pfd = {.fd = 0, .events = POLLIN};
        int r = poll(&pfd, 1, idle_ms > 0 ? (int)idle_ms : -1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break; /* idle, or stdin unusable */
        ssize_t got = read(0, buf + have, sizeof buf - 1 - have);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break; /* this process's end closed */
        have += (size_t)got;
        buf[have] = '\0';
        char *nl;
        while ((nl = strchr(buf, '\n')) != NULL) {
            *nl = '\0';
            char batch[PATH_MAX];
            if (strchr(buf, '/') == NULL &&
                snprintf(batch, sizeof batch, "%s/%s", dir, buf) < (int)sizeof batch)
                serve_batch(h, batch);
            have -= (size_t)(nl + 1 - buf);
            memmove(buf, nl + 1, have + 1);
        }
        if (have == sizeof buf - 1)
            have = 0; /* no line that long is ours */
    }
    miopenDestroy(h);
    return 0;
}
