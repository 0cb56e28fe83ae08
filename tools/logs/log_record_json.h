/* log_record_json.h - a record as one JSON object: "format" and every
 * field by name (a request as method, path, query, protocol; times also as
 * NAME_iso), unnamed trailing fields in "extra". */
#ifndef PCT_TOOLS_LOG_RECORD_JSON_H
#define PCT_TOOLS_LOG_RECORD_JSON_H

#include "log_decode.h"
#include "log_record.h"

/* Writes r as a JSON object (no newline); room is reserved as it goes. */
void json_record(struct worker *w, const struct log_record *r);

#endif
