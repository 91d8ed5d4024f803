/* First handles made by several threads at once. OpenCL's first platform query is where the
 * ICD loader and PoCL initialise; unserialised, one of two simultaneous miopenCreate calls
 * failed with "no devices". Each round is a fresh process (forked before the parent touches
 * OpenCL, so it is the process's first initialisation that races), whose threads wait on a
 * barrier and then all call miopenCreate; every one must succeed and find the same device.
 * A second wave in the same process checks later simultaneous creates too. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <clfuse/clfuse.h>

enum { THREADS = 6, ROUNDS = 6 };

typedef struct worker {
    pthread_barrier_t *barrier;
    miopenStatus_t st;
    char msg[512];
    char device[256];
} worker;

/* Workers never exit: the child process ends with _exit while they wait. A thread that was
 * the first to enter PoCL has LLVM's alternate signal stack (malloc'ed) installed, and
 * AddressSanitizer's thread teardown tries to unmap it and aborts; that is a sanitizer and
 * LLVM matter, not this test's. */
static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static int done_count;

static void finish(void)
{
    pthread_mutex_lock(&done_lock);
    ++done_count;
    pthread_cond_broadcast(&done_cond);
    for (;;)
        pthread_cond_wait(&never, &done_lock);
}

static void *create_one(void *arg)
{
    worker *w = arg;
    pthread_barrier_wait(w->barrier);
    miopenHandle_t h = NULL;
    w->st = miopenCreate(&h);
    if (w->st != miopenStatusSuccess) {
        snprintf(w->msg, sizeof w->msg, "%s", clfuse_GetLastErrorMessage(NULL));
    } else {
        clfuse_DeviceInfo info;
        if (clfuse_GetDeviceInfo(h, &info) == miopenStatusSuccess)
            snprintf(w->device, sizeof w->device, "%s", info.name);
        if (miopenDestroy(h) != miopenStatusSuccess)
            w->st = miopenStatusInternalError;
    }
    finish();
    return NULL;
}

/* One wave of THREADS simultaneous creates; 0 when all succeeded on one device. */
static int wave(int round)
{
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, THREADS);
    worker w[THREADS];
    pthread_t t[THREADS];
    memset(w, 0, sizeof w);
    for (int i = 0; i < THREADS; ++i) {
        w[i].barrier = &barrier;
        if (pthread_create(&t[i], NULL, create_one, &w[i]) != 0)
            return 10;
    }
    int bad = 0;
    pthread_mutex_lock(&done_lock);
    while (done_count < THREADS)
        pthread_cond_wait(&done_cond, &done_lock);
    done_count = 0;
    pthread_mutex_unlock(&done_lock);
    for (int i = 0; i < THREADS; ++i) {
        if (w[i].st != miopenStatusSuccess) {
            fprintf(stderr, "round %d thread %d: %s: %s\n", round, i, miopenGetErrorString(w[i].st),
                    w[i].msg);
            bad = 1;
        } else if (strcmp(w[i].device, w[0].device) != 0) {
            fprintf(stderr, "round %d thread %d: device '%s', thread 0 got '%s'\n", round, i,
                    w[i].device, w[0].device);
            bad = 1;
        }
    }
    return bad; /* the barrier stays: the workers still exist */
}

static void simultaneous_first_handles(void **state)
{
    (void)state;
    for (int r = 0; r < ROUNDS; ++r) {
        fflush(NULL);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0)
            _exit(wave(r) || wave(r) ? 1 : 0); /* the first wave is the first initialisation */
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fail_msg("round %d: a simultaneous miopenCreate failed (status 0x%x)", r, status);
    }
}

int main(void)
{
    setenv("MIOPEN_LOG_LEVEL", "1", 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(simultaneous_first_handles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
