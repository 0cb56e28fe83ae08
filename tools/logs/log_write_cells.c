/* log_write_cells.c - the TSV writer's rows as cells (log_cells.h): the
 * same values, unescaped and length-prefixed, for a consumer in the same
 * process (pct.logs.read_frame). Not a --option of pct logs: chosen by
 * log_options.cfg.table = 'b'. The row body is log_tsv.c's. */
#include "log_tsv.h"
#include "log_writer.h"

static const struct table_style cells = {.cells = 1};

const struct log_writer log_write_cells = {
    .name = "cells",
    .table = &cells,
    TABLE_WRITER_ENTRIES,
    .header = NULL, /* the consumer knows its fields */
};
