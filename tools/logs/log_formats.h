/* log_formats.h - the formats of log_format_registry.h made ready to use:
 * their templates compiled (struct log_formats, built once and read-only
 * after, so a run can own its own), a line parsed as a format, a line's
 * format found, and an input's format carried from chunk to chunk. */
#ifndef PCT_TOOLS_LOG_FORMATS_H
#define PCT_TOOLS_LOG_FORMATS_H

#include <stddef.h>
#include <stdint.h>

#include "fmt_access.h"
#include "fmt_template.h"
#include "fmt_w3c.h"
#include "log_format_registry.h"
#include "log_options.h"
#include "log_record.h"

struct log_formats {
    struct log_template template[LF_COUNT]; /* compiled when has_template[id] */
    unsigned char has_template[LF_COUNT];
    int detect[LF_COUNT]; /* the formats tried per line in auto, in order */
    int ndetect;
    unsigned char escaping[LF_COUNT]; /* log_formats_escaping, per format */
};

/* Compiles the registry's templates and, when given, the --log-format
 * string (NULL: none). Returns NULL and sets *error (a static message) when
 * custom does not compile or memory runs out. */
struct log_formats *log_formats_new(const char *custom, const char **error);
void log_formats_free(struct log_formats *fs);

/* The escaping convention of format id's lines: its registry row's, or
 * for --log-format its server's (fmt_custom.h). Asked of every record. */
static inline enum log_escaping log_formats_escaping(const struct log_formats *fs, int id)
{
    return id >= 0 && id < LF_COUNT ? (enum log_escaping)fs->escaping[id] : LOG_ESC_NONE;
}

/* Parses line s as format id into r; 1 if it is one. */
int record_parse(int id, const char *s, size_t n, struct log_record *r,
                 const struct log_config *cfg);

/* A record the server cut (log_cut.h) of format id (< 0: any format tried
 * in auto mode): cut is TEMPLATE_CUT_QUOTED or TEMPLATE_CUT_ANYWHERE; 1 if
 * it is one (r->truncated set). A line that parses whole is not one. */
int record_parse_cut(int id, const char *s, size_t n, struct log_record *r,
                     const struct log_config *cfg, int cut);

/* Finds the format of a line (not W3C: that needs its header); 1 if one
 * matches. *last: the caller's memory of the format that matched last
 * (tried first; any value is safe, -1: none), updated. */
int record_detect(const char *s, size_t n, struct log_record *r, const struct log_config *cfg,
                  int *last);

/* The format of one input, carried from chunk to chunk. */
struct input_format {
    enum log_format_id fmt; /* LF_AUTO until found */
    struct w3c_layout layout;
    int detected;
    const char *name;  /* the input's name, for messages (NULL: none) */
    uint64_t offset;   /* bytes of the input's text before the next chunk */
    int too_wide;      /* headers reported too wide: the run fails (exit status 2) */
    struct buf *notes; /* where the report goes, a line each (NULL: stderr) */
};

/* Called for each chunk of an input, in order: detects the format on the
 * first one, gives the format and (W3C) the layout in effect at the chunk's
 * start, so chunks can be decoded in any order. A W3C header too wide to be
 * used is reported (to is->notes) here, once, and counted in is->too_wide. */
void input_format_chunk(struct input_format *is, const char *p, size_t n, enum log_format_id *fmt,
                        struct w3c_layout *layout);

#endif
