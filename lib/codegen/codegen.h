/* codegen: a solver's build spec + the problem -> ONE OpenCL source and its build options.
 * The source is a generated #define preamble (problem shape, epilogue steps, tuning values)
 * followed by cl/ fragments: activation, epilogue, then the solver's kernel fragment. */
#ifndef CLFUSE_CODEGEN_H
#define CLFUSE_CODEGEN_H

#include "solver/solver.h"

typedef struct clf_generated {
    clf_strbuf source;
    char options[256];
    clf_launch launch;
    char kernel_name[32];
} clf_generated;

/* The text of a cl/ fragment by name (without .cl), or NULL. */
const char *clf_fragment(const char *name);

/* The generated #define preamble for p (problem shape, epilogue steps), for callers that
 * assemble their own programs from fragments (self-running solvers). */
void clf_codegen_preamble(const clf_fusion_problem *p, clf_strbuf *b);

/* Generates the program for solver + cfg. On failure returns -1 with a reason in why, -2 when
 * memory ran out. */
int clf_codegen_generate(const clf_fusion_problem *p, const clf_solver *s,
                         const clfuse_DeviceInfo *dev, const char *cfg, const char *title,
                         clf_generated *out, char *why, size_t cap);
void clf_generated_free(clf_generated *g);

/* Writes the source to $CLFUSE_DUMP_DIR/<name>.cl when that variable is set (best effort,
 * a failure is logged as a warning). */
void clf_codegen_dump(const char *name, const clf_generated *g);

#endif
