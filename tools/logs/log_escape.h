/* log_escape.h - the escaping that keeps decoded log content from forging
 * output: one input line stays one output line, and no control character
 * reaches a terminal. */
#ifndef PCT_TOOLS_LOG_ESCAPE_H
#define PCT_TOOLS_LOG_ESCAPE_H

#include <stddef.h>

#include "log_scan.h"

/* What is escaped. */
enum log_escape_mode {
    ESC_LINE,      /* decoded text, line output: controls, '"', '\\' */
    ESC_SPACED,    /* the same plus ' ' (whitespace-separated formats) */
    ESC_JSON,      /* inside a JSON string */
    ESC_CONTROLS,  /* text that is not decoded: only controls (a tab stays) */
    ESC_JSON_TEXT, /* a JSON line's text, not decoded: DEL, C1 as \u00HH (JSON
                      escapes), a control outside its strings (whitespace) a space */
    ESC_MODES
};

struct log_escape {
    struct log_scan scan[ESC_MODES]; /* the bytes that may need an escape */
};

void log_escape_init(struct log_escape *e);

/* Writes src escaped at o and returns the end of what it wrote. o needs room
 * for 6 bytes per input byte. */
char *log_escape(const struct log_escape *e, char *o, const char *src, size_t n,
                 enum log_escape_mode mode);

/* Writes the escape of src[*i], a byte of the mode's class (with the byte
 * after it for a C1 control), and moves *i past what it took. */
char *log_escape_at(const struct log_escape *e, char *o, const char *src, size_t n, size_t *i,
                    enum log_escape_mode mode);

/* log_escape, for src followed by at least 16 readable bytes and o with room
 * for 16 more: no call per escape (decoded text in a scratch buffer). */
char *log_escape_padded(const struct log_escape *e, char *o, const char *src, size_t n,
                        enum log_escape_mode mode);

#endif
