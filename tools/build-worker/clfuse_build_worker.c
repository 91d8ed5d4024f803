/* clfuse-build-worker DIR: builds the programs a Find placed in DIR into the on-disk binary
 * cache, for the process that started it (lib/cache/farm.h). Not for direct use. */
#include "cache/farm.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: clfuse-build-worker JOB_DIR (started by libclfuse)\n");
        return 2;
    }
    return clf_farm_serve(argv[1]);
}
