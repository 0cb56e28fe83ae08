/* logs_fuzz_cells.c - the cells writer (tools/logs/log_cells.h) against the
 * TSV writer on the same run: row for row and cell for cell, a TSV cell
 * unescaped (\\ \t \n \r \xHH; \N null) is the cell's value, a long line's
 * pieces joined; a TEXT cell's hash is log_cell_hash of its bytes, a TIME
 * cell's nanoseconds are log_value_iso_ns of its text (INT64_MIN when that
 * is no time). One difference is the TSV writer's own: a first cell of
 * decoded text starting with '#' is written "%23..." there (a row is a
 * line too, log_safe.h), not in cells. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log_cells.h"
#include "log_session.h"
#include "logs_fuzz.h"

static int hex(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* TSV cell p[0..n) unescaped into out (room: n); its length, or -1 when it
 * holds an escape the TSV writer does not write. */
static long tsv_unescape(const char *p, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] != '\\') {
            out[o++] = p[i];
            continue;
        }
        if (i + 1 >= n)
            return -1;
        const char e = p[++i];
        if (e == '\\' || e == 't' || e == 'n' || e == 'r') {
            out[o++] = e == '\\' ? '\\' : e == 't' ? '\t' : e == 'n' ? '\n' : '\r';
        } else if (e == 'x' && i + 2 < n && hex(p[i + 1]) >= 0 && hex(p[i + 2]) >= 0) {
            out[o++] = (char)(hex(p[i + 1]) << 4 | hex(p[i + 2]));
            i += 2;
        } else {
            return -1;
        }
    }
    return (long)o;
}

/* The next cell of the cells output at *at: its value (pieces joined into
 * *joined), or NULL for a null cell; *len its length. Reports and returns
 * the sentinel `bad` when the output is cut or malformed. */
static const char bad[1];

static const char *next_cell(const struct logs_fuzz_opts *o, const char *c, size_t n, size_t *at,
                             char **joined, size_t *len)
{
    size_t jn = 0;
    for (;;) {
        struct log_cell cell;
        const size_t size = log_cell_read(c + *at, n - *at, &cell);
        if (size == 0) {
            logs_fuzz_violation(o, "cells", "a cell cut at byte %zu of %zu", *at, n);
            return bad;
        }
        *at += size;
        const int tag = cell.tag;
        const size_t m = cell.n;
        const char *v = cell.p;
        if (tag == LOG_CELL_NULL) {
            if (m != 0 || jn != 0)
                logs_fuzz_violation(o, "cells", "a null cell of %zu bytes (after pieces: %zu)", m,
                                    jn);
            return NULL;
        }
        if (tag == LOG_CELL_TIME) {
            int64_t ns, want;
            if (m < 8 || jn != 0) {
                logs_fuzz_violation(o, "cells", "a time cell of %zu bytes", m);
                return bad;
            }
            memcpy(&ns, v, 8);
            if (!log_value_iso_ns(v + 8, m - 8, &want))
                want = INT64_MIN;
            if (ns != want)
                logs_fuzz_violation(o, "cells", "a time cell's ns %lld, its text gives %lld",
                                    (long long)ns, (long long)want);
            *len = m - 8;
            return v + 8;
        }
        if (tag == LOG_CELL_TEXT) {
            if (cell.hash != log_cell_hash(v, m))
                logs_fuzz_violation(o, "cells", "a text cell's hash is not of its bytes");
        }
        char *p = realloc(*joined, jn + m + 1);
        if (p == NULL)
            abort();
        *joined = p;
        memcpy(p + jn, v, m);
        jn += m;
        if (tag == LOG_CELL_TEXT) {
            *len = jn;
            return *joined;
        }
    }
}

void logs_fuzz_cells_same(const struct logs_fuzz_opts *o, const struct logs_fuzz_out *tsv,
                          const struct logs_fuzz_out *cells, int header)
{
    const char *t = tsv->p, *c = cells->p;
    size_t ti = 0, ci = 0, row = 0;
    char *joined = NULL, *plain = malloc(tsv->n + 1);
    if (plain == NULL)
        abort();
    if (header && tsv->n > 0) {
        const char *nl = memchr(t, '\n', tsv->n);
        ti = nl != NULL ? (size_t)(nl - t) + 1 : tsv->n;
    }
    while (ti < tsv->n) {
        const char *nl = memchr(t + ti, '\n', tsv->n - ti);
        const size_t end = nl != NULL ? (size_t)(nl - t) : tsv->n;
        row++;
        for (size_t k = 0, at = ti; at <= end; k++) {
            const char *tab = memchr(t + at, '\t', end - at);
            const size_t cell_end = tab != NULL ? (size_t)(tab - t) : end;
            size_t len = 0;
            const char *v = next_cell(o, c, cells->n, &ci, &joined, &len);
            if (v == bad)
                goto done;
            const char *p = t + at;
            const size_t n = cell_end - at;
            const int null = n == 2 && p[0] == '\\' && p[1] == 'N';
            long u = null ? 0 : tsv_unescape(p, n, plain);
            if (u < 0)
                logs_fuzz_violation(o, "cells", "row %zu cell %zu: a TSV escape not written", row,
                                    k);
            int same =
                null ? v == NULL : v != NULL && (size_t)u == len && memcmp(plain, v, len) == 0;
            if (!same && k == 0 && v != NULL && u >= 3 && memcmp(plain, "%23", 3) == 0 &&
                len >= 1 && v[0] == '#' && (size_t)u == len + 2 &&
                memcmp(plain + 3, v + 1, len - 1) == 0)
                same = 1; /* the TSV writer's '#' guard */
            if (!same)
                logs_fuzz_violation(o, "cells",
                                    "row %zu cell %zu: TSV %s of %ld bytes, cells %s of %zu", row,
                                    k, null ? "null" : "text", u, v == NULL ? "null" : "text", len);
            at = cell_end + 1;
        }
        if (ci >= cells->n || c[ci] != '\n') {
            logs_fuzz_violation(o, "cells", "row %zu: more cells than TSV has, or no row end", row);
            goto done;
        }
        ci++;
        ti = end + 1;
    }
    if (ci != cells->n)
        logs_fuzz_violation(o, "cells", "%zu bytes of cells after the last TSV row", cells->n - ci);
done:
    free(joined);
    free(plain);
}
