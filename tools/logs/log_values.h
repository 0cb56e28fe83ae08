/* log_values.h - what the record callback's value functions decode with
 * (log_session.h declares them): a worker of the session's own, used by
 * one delivery at a time. */
#ifndef PCT_TOOLS_LOG_VALUES_H
#define PCT_TOOLS_LOG_VALUES_H

#include "log_decode.h"
#include "log_session.h"

struct log_values {
    struct worker w; /* fmt_buf: the text returned */
};

#endif
