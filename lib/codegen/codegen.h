/* codegen: a solver's build spec + the problem -> ONE OpenCL source and its build options.
 * The source is a generated #define preamble (problem shape, epilogue steps, tuning values)
 * followed by cl/ fragments: activation, epilogue, then the solver's kernel fragment. */
#ifndef CLFUSE_CODEGEN_H
#define CLFUSE_CODEGEN_H

#include "codegen/kargs.h"
#include "solver/solver.h"

typedef struct clf_generated {
    clf_strbuf source;
    char options[256];
    clf_launch launch;
    char kernel_name[32];  /* "" for a program of several kernels (clf_codegen_program) */
    int min_groups_per_cu; /* the spec's occupancy hint, for clf_program_get */
    clf_karg_list args;    /* the kernel's parameters (kargs.h: clf_kargs_of, clf_hkargs_of) */
} clf_generated;

/* The text of a cl/ fragment by name (without .cl), or NULL. */
const char *clf_fragment(const char *name);

/* The generated #define preamble for p (problem shape, epilogue steps, the kernel's
 * parameters: args, clf_kargs_of), for callers that assemble their own programs from
 * fragments (self-running solvers). */
void clf_codegen_preamble(const clf_fusion_problem *p, const clf_karg_list *args, clf_strbuf *b);

/* Generates the program for solver + cfg. On failure returns -1 with a reason in why, -2 when
 * memory ran out. */
int clf_codegen_generate(const clf_fusion_problem *p, const clf_solver *s,
                         const clfuse_DeviceInfo *dev, const char *cfg, const char *title,
                         clf_generated *out, char *why, size_t cap);
void clf_generated_free(clf_generated *g);

/* The build options of every generated program, the one place they are made: the OpenCL
 * standard and math flags, then CLFUSE_EXTRA_BUILD_OPTIONS. 0, or -1 with the reason when
 * they do not fit out. */
int clf_codegen_options(char *out, size_t cap, char *why, size_t why_cap);

/* The program of a self-running solver (several kernels, clf_solver.run): a first comment
 * line `header`, the preamble for p, spec's defines, then the named cl/ fragments in order;
 * spec's launch is not used, its min_groups_per_cu is. Options as for every program
 * (clf_codegen_options). Returns 0, -1 with a reason in why, -2 when memory ran out. */
int clf_codegen_program(const clf_fusion_problem *p, const char *header, const clf_build_spec *spec,
                        const char *const *fragments, size_t n, clf_generated *out, char *why,
                        size_t cap);

/* Writes the source to $CLFUSE_DUMP_DIR/<name>.cl when that variable is set (best effort,
 * a failure is logged as a warning). */
void clf_codegen_dump(const char *name, const clf_generated *g);

#endif
