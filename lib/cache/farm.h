/* Building many programs at once in worker processes.
 *
 * NVIDIA's OpenCL compiles one program at a time per process: threads only contend (8 built
 * fewer candidates than 1 did), while 8 processes built 8 layers' candidates 5.1x faster than
 * one (bench/results/2026-11-24_h100_farm_s9). So a Find that must compile many candidates
 * hands them to clfuse-build-worker processes, which build them into the on-disk binary cache
 * (cache.h); this process then loads each from there. The caller takes part: it claims jobs
 * in order and builds those itself, and waits only for the ones a worker holds.
 *
 * Nothing here can lose a build: a worker that cannot start, cannot find the device, dies or
 * stalls leaves its jobs to this process, which builds them as it would have without workers.
 *
 * The workers belong to the handle and serve its Finds one after another: starting one costs
 * about as much as a few builds (a process, an OpenCL context), so a network's Finds in a row
 * pay it once. A worker waits on a socket from this process for the next batch of jobs and
 * exits when that closes (miopenDestroy, or this process ending) or after
 * CLFUSE_BUILD_WORKER_IDLE_S seconds without one (default 10: an idle worker holds a device
 * context). A batch travels through a directory of the handle's private temporary directory
 * (mkdtemp): N.src (source), N.opt (options, occupancy hint, name for messages), N.claim
 * (O_EXCL: who builds N), N.warm (optional: the launch to run once after the build, warm.h),
 * N.done ("ok" with "warmed" when the launch ran, or "fail" and the build's message), "stop"
 * (the batch is over: workers take no more of its jobs).
 *
 * On PoCL the workers serve another end: PoCL compiles a kernel's work-group function at its
 * first launch, one at a time in a process, and keeps it in its own disk cache, which this
 * process's first launch of the same program then finds. So there a job carries its launch
 * (warm.h) and the worker runs it once after the build.
 *
 * Settings: CLFUSE_BUILD_PROCESSES, the processes that build at once, this one included
 * (default clf_farm_default_processes: on NVIDIA and PoCL the online processors, up to 8 for
 * a batch under a compile budget and up to 16 for one that builds everything, elsewhere 1,
 * which starts no worker; workers need a cache that other processes read, clfuse's on-disk
 * binary cache or PoCL's kernel cache, so none start where that is off).
 * CLFUSE_BUILD_WORKER names the worker executable; by default it is looked for beside
 * libclfuse (and ../lib, ../../lib, ../libexec/clfuse from there, the build tree's layouts)
 * and in the installed libexec directory. */
#ifndef CLFUSE_FARM_H
#define CLFUSE_FARM_H

#include "cache/warm.h"
#include "core/core.h"

typedef struct clf_farm_job {
    const char *what; /* names the program in messages */
    const char *source;
    const char *options;
    int min_groups_per_cu;
    /* NULL, or the launch the worker runs once after building (warm.h: where the driver
     * compiles at the first launch, the worker then pays that compile, not this process) */
    const clf_warm_launch *warm;
} clf_farm_job;

typedef struct clf_farm clf_farm;
typedef struct clf_farm_pool clf_farm_pool;

typedef enum clf_farm_outcome {
    CLF_FARM_MINE,   /* build it here: this process claimed it, or its worker was lost */
    CLF_FARM_BUILT,  /* a worker built it: clf_program_get now loads it from the disk cache */
    CLF_FARM_FAILED, /* a worker's build failed; why holds its message */
    CLF_FARM_LATE,   /* a worker still builds it at the deadline */
} clf_farm_outcome;

/* The processes that build at once by default, this one included: 1 (no workers) unless
 * workers pay on the device (pays: NVIDIA, whose compiler builds one program at a time in a
 * process; PoCL, whose first launches compile one at a time); there the online processors,
 * at most 16 for a batch that builds every job (whole: a SEARCH, whose time falls with the
 * processes: ResNet-18 b1 on an H100's 16 cores took at most 9.9 s a layer with 8 and 5.1 s
 * with 16) and at most 8 for one under a compile budget (NORMAL: 16 built 1.6x the
 * candidates in its 1250 ms, but starting 15 workers took the first layer's Find past 2 s,
 * 2.28 s against 1.84, for picks within the noise of 8's; bench/results/2026-12-07_h100_s43).
 * The count sets how many workers a batch starts; the workers belong to the handle and every
 * batch goes to all that are alive, so a NORMAL Find within CLFUSE_BUILD_WORKER_IDLE_S of a
 * SEARCH on the same handle shares the SEARCH's. */
long clf_farm_default_processes(int pays, long online, int whole);

/* Hands jobs[0..n) (most wanted first; the strings are copied) to the handle's workers as one
 * batch, starting them first when the settings and the device call for workers, and returns
 * NULL when there are none: the caller then builds everything itself. whole: the caller
 * waits for every job (no compile budget), which sets how many workers start by default
 * (clf_farm_default_processes). Reasons for none that a user should know (no worker
 * executable, spawn or file errors) are logged as warnings. */
clf_farm *clf_farm_start(miopenHandle_t h, const clf_farm_job *jobs, int n, int whole);

/* The number of workers the batch was handed to. */
int clf_farm_workers(const clf_farm *f);

/* Claims job i for this process (1: build it now) unless a worker holds it (0). */
int clf_farm_claim(clf_farm *f, int i);

/* Whether job i is claimed, by this process or a worker (a worker's claim: it has begun the
 * build), without claiming it. */
int clf_farm_taken(const clf_farm *f, int i);

/* For a job clf_farm_claim did not give this process: waits for its worker's outcome, until
 * deadline_ms on clf_now_ms's clock (0: none; a stalled worker is still given up after
 * CLF_FARM_STALL_MS). */
#define CLF_FARM_STALL_MS 300000.0
clf_farm_outcome clf_farm_wait(clf_farm *f, int i, double deadline_ms, char *why, size_t cap);

/* The jobs workers finished (built or failed) so far, and of them those whose warm launch ran. */
int clf_farm_done_by_workers(const clf_farm *f);
int clf_farm_warmed_by_workers(const clf_farm *f);

/* Workers take no more of the batch's jobs; those they hold they finish, and this process
 * may still wait for them (clf_farm_wait). Again, or on NULL, nothing happens. */
void clf_farm_close(clf_farm *f);

/* Ends the batch: workers finish the job they hold (into the cache) and take no more of it.
 * NULL is fine. */
void clf_farm_finish(clf_farm *f);

/* The batches handed to the handle's workers so far (for tests and reports). */
unsigned clf_farm_batches(miopenHandle_t h);

/* Stops the handle's workers and removes their directory (miopenDestroy, or the handle moving
 * to another context). */
void clf_farm_pool_destroy(miopenHandle_t h);

/* The worker's side (clfuse-build-worker DIR, its socket on stdin): builds the unclaimed jobs
 * of each batch named on stdin for the device named in DIR. Returns the process exit status:
 * 0, or 1 when the device could not be opened (message on stderr). */
int clf_farm_serve(const char *dir);

#endif
