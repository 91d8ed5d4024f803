/* The -F fusion modes shared by clfuse-driver and MIOPEN_ENABLE_LOGGING_CMD: the first seven
 * are MIOpenDriver's numbers, so logged lines replay there too. */
#include "plan/plan.h"

#include <string.h>

static const char *const modes[] = {
    "CBNA", "CNA", "NA", "CN", "CBA", "CA", "CB",        /* MIOpenDriver CBAInfer -F 0..6 */
    "C",    "CBN", "N",  "A",  "B",   "BA", "BN", "BNA", /* clfuse: the rest of C? B? N? A? */
};

int clf_fusion_mode_from_name(const char *name)
{
    for (int i = 0; i < (int)(sizeof modes / sizeof modes[0]); ++i)
        if (clf_strcaseeq(modes[i], name))
            return i;
    return -1;
}

const char *clf_fusion_mode_name(int mode)
{
    if (mode < 0 || mode >= (int)(sizeof modes / sizeof modes[0]))
        return NULL;
    return modes[mode];
}
