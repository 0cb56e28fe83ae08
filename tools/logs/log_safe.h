/* log_safe.h - the rules that keep log content from forging output, written
 * once for every writer (log_writer.h):
 *   - control bytes (C0, DEL, and U+0080-U+009F as UTF-8) are escaped in
 *     every mode unless --raw (log_escape.c does the escaping; put_undecoded
 *     in log_decode.h applies it to text that is not decoded);
 *   - a decoded '#' never starts a line (it would read as a W3C directive);
 *   - a CR before a line's LF is part of its ending, never of its text; a
 *     lone CR inside a line is a control byte like any other;
 *   - --csv-safe: a CSV cell that a spreadsheet would run as a formula
 *     starts with a "'".
 *   - an over-long line (longer than --max-line) is counted and reported
 *     the same way wherever it is found (log_safe_long_line). */
#ifndef PCT_TOOLS_LOG_SAFE_H
#define PCT_TOOLS_LOG_SAFE_H

#include <stddef.h>

#include "log_decode.h"

/* The end of the text of a line whose newline is at nl (NULL: a last line
 * with none, ending at end): before a CR that ends it. */
static inline const char *log_safe_text_end(const char *start, const char *nl, const char *end)
{
    if (nl == NULL)
        return end;
    return nl > start && nl[-1] == '\r' ? nl - 1 : nl;
}

/* A decoded field written at out[start..] starts the line: a '#' there is
 * written as %23 (the field's text was decoded, so %23 is what the log
 * held). */
void log_safe_hash_guard(struct worker *w, size_t start);

/* 1 if a CSV cell starting with byte c is run as a formula by spreadsheets
 * (OWASP, CSV injection): '=', '+', '-', '@', a tab or a CR. */
static inline int log_safe_formula_start(unsigned char c)
{
    return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r';
}

#endif
