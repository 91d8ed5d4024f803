/* clfuse-driver: replays MIOpenDriver command lines (the ones MIOPEN_ENABLE_LOGGING_CMD
 * prints) against clfuse. */
#include "driver.h"

#include <stdio.h>
#include <string.h>

static void usage(void)
{
    fprintf(stderr, "usage: clfuse-driver COMMAND [flags]\n"
                    "commands:\n"
                    "  CBAInfer   fused convolution / bias / batch-norm / activation inference\n"
                    "  CBAInferfp16  the same with half x, w, y (and z); fp32 bias and batch-norm\n"
                    "  conv       forward convolution through Find or Immediate mode\n"
                    "  convfp16   the same with half x, w, y (as a one-op fusion plan)\n"
                    "  HorizInfer horizontal fusion: convolution branches over one input, their\n"
                    "             outputs concatenated, checked against the branches one by one\n"
                    "run 'clfuse-driver COMMAND -h' for the flags of a command\n");
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        usage();
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "CBAInfer") == 0)
        return driver_cba_infer(argc - 1, argv + 1, 0);
    if (strcmp(argv[1], "CBAInferfp16") == 0)
        return driver_cba_infer(argc - 1, argv + 1, 1);
    if (strcmp(argv[1], "conv") == 0)
        return driver_conv(argc - 1, argv + 1, 0);
    if (strcmp(argv[1], "HorizInfer") == 0)
        return driver_horiz_infer(argc - 1, argv + 1);
    if (strcmp(argv[1], "convfp16") == 0)
        return driver_conv(argc - 1, argv + 1, 1);
    fprintf(stderr, "clfuse-driver: unknown command '%s'\n", argv[1]);
    usage();
    return 2;
}
