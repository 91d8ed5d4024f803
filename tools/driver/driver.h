/* clfuse-driver: a MIOpenDriver-compatible command line. Each subcommand is one file. */
#ifndef CLFUSE_DRIVER_H
#define CLFUSE_DRIVER_H

/* CBAInfer: build, compile, run, time and verify a fusion plan. Returns the exit code. */
int driver_cba_infer(int argc, char **argv);

#endif
