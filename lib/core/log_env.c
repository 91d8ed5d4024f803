/* Logging and environment switches. MIOpen's variable names are kept where MIOpen has one,
 * so scripts written for MIOpen keep working. */
#include "core/core.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int clf_strcaseeq(const char *a, const char *b)
{
    for (; *a && *b; ++a, ++b)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

int clf_env_flag(const char *name)
{
    const char *v = getenv(name);
    if (v == NULL)
        return 0;
    return clf_strcaseeq(v, "1") || clf_strcaseeq(v, "on") || clf_strcaseeq(v, "yes") ||
           clf_strcaseeq(v, "true") || clf_strcaseeq(v, "enable") || clf_strcaseeq(v, "enabled");
}

long clf_env_long(const char *name, long fallback)
{
    const char *v = getenv(name);
    if (v == NULL || *v == '\0')
        return fallback;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno != 0 || *end != '\0')
        return fallback;
    return x;
}

int clf_log_level(void)
{
    long lvl = clf_env_long("MIOPEN_LOG_LEVEL", 0);
    if (lvl <= 0)
        return CLF_LOG_WARNING; /* MIOpen's release default */
    return (int)lvl;
}

void clf_log(int level, const char *fmt, ...)
{
    if (level > clf_log_level())
        return;
    static const char *names[] = {"", "", "fatal", "error", "warning", "info", "info2", "trace"};
    const char *tag = (level >= 0 && level <= 7) ? names[level] : "log";
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "clfuse %s: ", tag);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
