/* logs_records.h - pct.logs' C part (logs_records.c): the log engine run
 * in-process, its records as dicts. */
#ifndef PCT_PY_LOGS_RECORDS_H
#define PCT_PY_LOGS_RECORDS_H

#include <Python.h>

/* Adds LogReader, logs_json and log_formats to the module; -1 on error. */
int pct_logs_init(PyObject *module);

#endif
