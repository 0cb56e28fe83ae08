/* log_write_tsv.c - TSV output: one row of the --fields per line, cells
 * separated by tabs, a missing field or '-' as \N, every cell escaped
 * (\\ \t \r \n \xHH: no cell holds a separator or a control byte). The row
 * body is log_tsv.c's. */
#include "log_tsv.h"
#include "log_writer.h"

static const struct table_style tsv = {
    .sep = '\t', .null = "\\N", .null_len = 2, .quoting = 0, .formula_guard = 0};

const struct log_writer log_write_tsv = {
    .name = "tsv",
    .table = &tsv,
    TABLE_WRITER_ENTRIES,
    .header = table_writer_header,
};
