/* MIOPEN_FIND_MODE and MIOPEN_FIND_MODE_FUSION: names in any case or numbers, as MIOpen
 * reads them. An invalid value is reported once per process and the default is used. */
#include "select/select.h"

#include <stdatomic.h>
#include <stdlib.h>

static const struct {
    const char *name;
    clf_find_mode mode;
} names[] = {
    {"NORMAL", CLF_FIND_NORMAL},
    {"FAST", CLF_FIND_FAST},
    {"HYBRID", CLF_FIND_HYBRID},
    {"DYNAMIC_HYBRID", CLF_FIND_DYNAMIC_HYBRID},
};

static atomic_int warned;

clf_find_mode clf_find_mode_from_env(const char *var, clf_find_mode fallback)
{
    const char *v = getenv(var);
    if (v == NULL || *v == '\0')
        return fallback;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        char num[4] = {(char)('0' + (int)names[i].mode), '\0'};
        if (clf_strcaseeq(v, names[i].name) || clf_strcaseeq(v, num))
            return names[i].mode;
    }
    if (!atomic_exchange(&warned, 1))
        clf_log(CLF_LOG_WARNING,
                "%s=%s is not a find mode (NORMAL/1, FAST/2, HYBRID/3, DYNAMIC_HYBRID/5); using %s",
                var, v, clf_find_mode_name(fallback));
    return fallback;
}

const char *clf_find_mode_name(clf_find_mode m)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (names[i].mode == m)
            return names[i].name;
    return "?";
}

int clf_find_enforce_search(void)
{
    const char *v = getenv("MIOPEN_FIND_ENFORCE");
    if (v == NULL)
        return 0;
    return clf_strcaseeq(v, "SEARCH") || clf_strcaseeq(v, "3") ||
           clf_strcaseeq(v, "SEARCH_DB_UPDATE") || clf_strcaseeq(v, "4");
}
