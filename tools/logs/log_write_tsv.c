/* log_write_tsv.c - TSV output: one row of the --fields per line, cells
 * separated by tabs, a missing field or '-' as \N, every cell escaped
 * (\\ \t \r \n \xHH: no cell holds a separator or a control byte). The row
 * body is log_tsv.c's. */
#include "log_record_out.h"
#include "log_tsv.h"
#include "log_writer.h"

static const struct table_style tsv = {
    .sep = '\t', .null = "\\N", .null_len = 2, .quoting = 0, .formula_guard = 0};

static void tsv_access(struct worker *w, const char *s, size_t n, const struct access *a,
                       enum log_format_id fmt)
{
    if (!record_process_access(w, s, n, a, fmt)) {
        w->st->unparsed++;
        table_unparsed(w, &tsv, s, n, 0);
    }
}

static void tsv_w3c(struct worker *w, const char *s, size_t n, const struct span *f, int count,
                    const struct w3c_layout *l)
{
    record_process_w3c(w, s, n, f, count, l);
}

static void tsv_field(struct worker *w, const char *s, size_t n, struct span u)
{
    (void)u; /* --field N is refused with --tsv (log_options.c) */
    w->st->unparsed++;
    table_unparsed(w, &tsv, s, n, 0);
}

static void tsv_record(struct worker *w, const char *s, size_t n, const struct log_record *r)
{
    table_record(w, &tsv, s, n, r);
}

static void tsv_unparsed(struct worker *w, const char *s, size_t n, int directive)
{
    table_unparsed(w, &tsv, s, n, directive);
}

static void tsv_long_start(struct worker *w)
{
    table_long_start(w, &tsv);
}

static void tsv_long_piece(struct worker *w, const char *p, size_t n)
{
    table_long_piece(w, &tsv, p, n);
}

static void tsv_long_end(struct worker *w)
{
    table_long_end(w, &tsv);
}

static size_t tsv_header(const struct log_ctx *ctx, char *out, size_t cap)
{
    return table_header(ctx->table, &tsv, 0, out, cap);
}

const struct log_writer log_write_tsv = {
    .name = "tsv",
    .room_per_byte = 0, /* each cell reserves its own: memory follows the row, not the line */
    .keeps_line_ending = 0,
    .honours_raw = 0,
    .exact_fields = 1,
    .wants_plain = 1, /* plain lines: fields copied, not scanned */
    .access = tsv_access,
    .w3c = tsv_w3c,
    .field = tsv_field,
    .record = tsv_record,
    .unparsed = tsv_unparsed,
    .long_start = tsv_long_start,
    .long_piece = tsv_long_piece,
    .long_end = tsv_long_end,
    .header = tsv_header,
};
