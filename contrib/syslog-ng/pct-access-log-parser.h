/* pct-access-log-parser.h - pct-access-log-parser(): a syslog-ng parser
 * that reads ${MESSAGE} as an access-log line with libpct's log engine. */
#ifndef PCT_SYSLOG_NG_ACCESS_LOG_PARSER_H
#define PCT_SYSLOG_NG_ACCESS_LOG_PARSER_H

#include "parser/parser-expr.h"

LogParser *pct_access_log_parser_new(GlobalConfig *cfg);

/* The options; each returns FALSE (and sets *error, a static text) for a
 * value it does not take. */
gboolean pct_access_log_parser_set_format(LogParser *p, const gchar *name, const gchar **error);
void pct_access_log_parser_set_log_format(LogParser *p, const gchar *log_format);
void pct_access_log_parser_set_prefix(LogParser *p, const gchar *prefix);
void pct_access_log_parser_set_decode_slash(LogParser *p, gboolean on);
gboolean pct_access_log_parser_set_query(LogParser *p, const gchar *mode, const gchar **error);
void pct_access_log_parser_set_json_key(LogParser *p, const gchar *key);

#endif
