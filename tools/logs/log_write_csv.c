/* log_write_csv.c - CSV output (RFC 4180): one row of the --fields per
 * line, cells separated by commas, a missing field or '-' empty; a cell
 * holding a comma, a quote or a space at either end is quoted ("" for a
 * quote); every cell escaped as in TSV (\\ \t \r \n \xHH: no control
 * byte). --csv-safe: a cell that starts with = + - @, a tab or a CR (a
 * formula to spreadsheets) gets a ' first, as OWASP advises. The row body
 * is log_tsv.c's. */
#include "log_record_out.h"
#include "log_tsv.h"
#include "log_writer.h"

static const struct table_style csv = {
    .sep = ',', .null = "", .null_len = 0, .quoting = 1, .formula_guard = 1};

static void csv_access(struct worker *w, const char *s, size_t n, const struct access *a,
                       enum log_format_id fmt)
{
    if (!record_process_access(w, s, n, a, fmt)) {
        w->st->unparsed++;
        table_unparsed(w, &csv, s, n, 0);
    }
}

static void csv_w3c(struct worker *w, const char *s, size_t n, const struct span *f, int count,
                    const struct w3c_layout *l)
{
    record_process_w3c(w, s, n, f, count, l);
}

static void csv_field(struct worker *w, const char *s, size_t n, struct span u)
{
    (void)u; /* --field N is refused with --csv (log_options.c) */
    w->st->unparsed++;
    table_unparsed(w, &csv, s, n, 0);
}

static void csv_record(struct worker *w, const char *s, size_t n, const struct log_record *r)
{
    table_record(w, &csv, s, n, r);
}

static void csv_unparsed(struct worker *w, const char *s, size_t n, int directive)
{
    table_unparsed(w, &csv, s, n, directive);
}

static void csv_long_start(struct worker *w)
{
    table_long_start(w, &csv);
}

static void csv_long_piece(struct worker *w, const char *p, size_t n)
{
    table_long_piece(w, &csv, p, n);
}

static void csv_long_end(struct worker *w)
{
    table_long_end(w, &csv);
}

static size_t csv_header(const struct log_ctx *ctx, char *out, size_t cap)
{
    return table_header(ctx->table, &csv, ctx->cfg.csv_safe, out, cap);
}

const struct log_writer log_write_csv = {
    .name = "csv",
    .room_per_byte = 0, /* each cell reserves its own: memory follows the row, not the line */
    .keeps_line_ending = 0,
    .honours_raw = 0,
    .exact_fields = 1,
    .wants_plain = 1, /* plain lines: fields copied, not scanned */
    .access = csv_access,
    .w3c = csv_w3c,
    .field = csv_field,
    .record = csv_record,
    .unparsed = csv_unparsed,
    .long_start = csv_long_start,
    .long_piece = csv_long_piece,
    .long_end = csv_long_end,
    .header = csv_header,
};
