/* tests/support/paths.h - random request paths for the pct_normalize_path
 * tests: pieces (separators, dots, escapes of every class, stray '%')
 * strung together, and where the path part of a target ends. */
#ifndef PCT_TEST_SUPPORT_PATHS_H
#define PCT_TEST_SUPPORT_PATHS_H

#include <stddef.h>
#include <string.h>

#include "support/prng.h"

/* Up to 15 pieces, at most max bytes; with probability any_bytes/100,
 * random bytes of any value instead. Returns the length. */
static inline size_t test_random_path(char *s, size_t max, const char *const *pieces,
                                      size_t npieces, unsigned any_bytes)
{
    size_t len = 0;
    if (any_bytes && rng_chance(any_bytes)) {
        len = rng_below(max);
        for (size_t j = 0; j < len; j++)
            s[j] = (char)rng_below(256);
        return len;
    }
    for (size_t j = 0, k = rng_below(16); j < k; j++) {
        const char *piece = pieces[rng_below(npieces)];
        const size_t n = strlen(piece);
        if (len + n > max)
            break;
        memcpy(s + len, piece, n);
        len += n;
    }
    return len;
}

/* Where the path of the target s[0..len) ends: its first '?' or '#'. */
static inline size_t test_path_end(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && s[i] != '?' && s[i] != '#')
        i++;
    return i;
}

#endif /* PCT_TEST_SUPPORT_PATHS_H */
