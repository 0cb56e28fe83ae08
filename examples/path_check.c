/* path_check.c - a proxy's request-path check with libpct.
 *
 *   cc path_check.c $(pkg-config --cflags --libs libpct)
 *   ./a.out /static/app.js '/static/%2e%2e/admin/'
 *
 * Each argument is a request target. It is normalized the way a proxy should
 * before routing on it (escapes normalized, dot segments removed, including
 * their escaped spellings; %2F kept so no later hop finds a new separator),
 * then allowed only under /static/ or /api/. Prints ALLOW or DENY per target;
 * exit status 1 if any was denied. */
#include <pct.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int starts_with(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(s, prefix, n) == 0;
}

static int allowed(const char *target)
{
    size_t len = strlen(target);
    char *path = malloc(len + 1); /* the result is never longer than the input */
    if (path == NULL)
        return 0;
    pct_result r = pct_normalize_path(target, len, path, &pct_path_policy_default);
    int ok = 0;
    if (r.status != PCT_OK) {
        /* e.g. %00: the default policy rejects escaped control bytes */
        printf("DENY  %s (%s at byte %zu)\n", target, pct_status_string(r.status), r.count);
    } else {
        ok = starts_with(path, r.count, "/static/") || starts_with(path, r.count, "/api/");
        printf("%s %s -> %.*s\n", ok ? "ALLOW" : "DENY ", target, (int)r.count, path);
    }
    free(path);
    return ok;
}

int main(int argc, char **argv)
{
    int all_allowed = 1;
    for (int i = 1; i < argc; i++)
        all_allowed &= allowed(argv[i]);
    return all_allowed ? 0 : 1;
}
