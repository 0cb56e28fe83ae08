/* plugin.c - a shared object built on libpct (like an nginx module or a
 * Python extension); its only export is plugin_decode. */
#include <pct.h>
#include <stddef.h>

__attribute__((visibility("default"))) size_t plugin_decode(char *text, size_t len)
{
    pct_result r = pct_decode(text, len, text, 0);
    return r.status == PCT_OK ? r.count : 0;
}
