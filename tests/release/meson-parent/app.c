/* app.c - the parent project's program: encodes its argument. */
#include <pct.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *text = argc > 1 ? argv[1] : "a b";
    char out[3 * 256];
    size_t len = strlen(text);
    if (len > 256)
        return 2;
    pct_result r = pct_encode(text, len, out, &pct_set_component, 0);
    if (r.status != PCT_OK)
        return 1;
    printf("%.*s\n", (int)r.count, out);
    return 0;
}
