/* Fuzz target: clfuse-driver's command-line parsers (tools/driver: CBAInfer, conv and
 * HorizInfer).
 *
 * The input is split at NUL and newline bytes into arguments; the first byte modulo 3
 * picks the command. Each argument is its own exact-size allocation, freed after the call,
 * so ASan catches a parser that keeps pointers into an argv across calls (getopt's state
 * is process-global and the parsers are called again and again here); after each input a
 * valid command line must parse. */
#include "fuzz.h"

#include "driver.h"

#include <stdio.h>
#include <stdlib.h>

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const int cmd = data[0] % 3; /* 0 CBAInfer, 1 conv, 2 HorizInfer */
    static const char *const names[] = {"CBAInfer", "conv", "HorizInfer"};
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    argv[argc] = malloc(11);
    if (argv[argc] == NULL)
        return 0;
    snprintf(argv[argc], 11, "%s", names[cmd]);
    argc++;
    size_t start = 1;
    for (size_t i = 1; i <= size && argc < MAX_ARGS; ++i) {
        if (i == size || data[i] == '\0' || data[i] == '\n') {
            size_t len = i - start;
            char *a = malloc(len + 1);
            if (a == NULL)
                break;
            memcpy(a, data + start, len);
            a[len] = '\0';
            argv[argc++] = a;
            start = i + 1;
        }
    }
    argv[argc] = NULL;
    int rc = cmd == 1   ? driver_conv_parse(argc, argv)
             : cmd == 2 ? driver_horiz_parse(argc, argv)
                        : driver_cba_parse(argc, argv);
    if (rc != 0 && rc != 1 && rc != -1)
        abort(); /* the documented results only */
    for (int i = 0; i < argc; ++i)
        free(argv[i]);
    /* Whatever the input did, the next parse starts clean: a valid command line parses. (The
     * parsers call glibc's getopt, which ASan does not instrument, so a scan position left
     * pointing into the freed argv shows up here rather than as a use-after-free report.) */
    char a0[] = "conv", a1[] = "-n", a2[] = "2", a3[] = "-c", a4[] = "3";
    char *good[] = {a0, a1, a2, a3, a4, NULL};
    if (driver_conv_parse(5, good) != 0) {
        fprintf(stderr, "fuzz_driver_args: a valid command line fails after this input\n");
        abort();
    }
    return 0;
}
