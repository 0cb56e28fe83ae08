/* log_writers.c - the output modes by name: the one place that maps the
 * options to a writer (log_writer.h). */
#include <string.h>

#include "log_writer.h"

static const struct log_writer *const writers[] = {&log_write_line, &log_write_json, &log_write_tsv,
                                                   &log_write_csv, &log_write_cells};

const struct log_writer *log_writer_for(const struct log_config *cfg)
{
    const char *name = cfg->json           ? "json"
                       : cfg->table == 't' ? "tsv"
                       : cfg->table == 'c' ? "csv"
                       : cfg->table == 'b' ? "cells"
                                           : "line";
    for (size_t i = 0; i < sizeof writers / sizeof *writers; i++)
        if (strcmp(writers[i]->name, name) == 0)
            return writers[i];
    return &log_write_line;
}
