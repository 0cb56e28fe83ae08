/* log_write_csv.c - CSV output (RFC 4180): one row of the --fields per
 * line, cells separated by commas, a missing field or '-' empty; a cell
 * holding a comma, a quote or a space at either end is quoted ("" for a
 * quote); every cell escaped as in TSV (\\ \t \r \n \xHH: no control
 * byte). --csv-safe: a cell that starts with = + - @, a tab or a CR (a
 * formula to spreadsheets) gets a ' first, as OWASP advises. The row body
 * is log_tsv.c's. */
#include "log_tsv.h"
#include "log_writer.h"

static const struct table_style csv = {
    .sep = ',', .null = "", .null_len = 0, .quoting = 1, .formula_guard = 1};

const struct log_writer log_write_csv = {
    .name = "csv",
    .table = &csv,
    TABLE_WRITER_ENTRIES,
    .header = table_writer_header,
};
