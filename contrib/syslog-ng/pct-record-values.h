/* pct-record-values.h - a parsed access-log record (the log engine's
 * record callback) set on a syslog-ng message as name-value pairs. */
#ifndef PCT_SYSLOG_NG_RECORD_VALUES_H
#define PCT_SYSLOG_NG_RECORD_VALUES_H

#include "logmsg/logmsg.h"

#include "log_session.h"

/* How a record's query is stored. */
enum pct_query_store {
    PCT_QUERY_BY_NAME, /* PREFIXquery.NAME, a list when the name repeats */
    PCT_QUERY_JSON     /* PREFIXquery: the [[name, value], ...] JSON text */
};

/* The name of a record's member at one position, and its handle. */
#define PCT_MEMBER_SLOTS 64
typedef struct {
    GString *key; /* as the engine gives it (not escaped) */
    NVHandle handle;
} PctMemberSlot;

/* What the setting of one record needs; kept by a session of the parser
 * (its buffers are reused from message to message). */
typedef struct _PctRecordValues {
    const gchar *prefix;
    enum pct_query_store query;
    GString *name, *value, *json;
    GHashTable *query_index; /* a query name -> its slot in query_names */
    GPtrArray *query_names;  /* GString: name; values as a syslog-ng list */
    GArray *query_counts;    /* how many values each name has */
    GString *pair_name;      /* a query pair's name, escaped */
    GHashTable *handles;     /* a value's name -> its NVHandle */
    PctMemberSlot members[PCT_MEMBER_SLOTS];
} PctRecordValues;

void pct_record_values_init(PctRecordValues *self, const gchar *prefix, enum pct_query_store query);
void pct_record_values_clear(PctRecordValues *self);

/* Sets PREFIXNAME for every member of record r as `pct logs --json` writes
 * it: strings with every control byte (C0, DEL, C1) and '\' escaped as
 * \xHH and \\, numbers and booleans typed, a null left unset, a list as
 * JSON text; the query as enum pct_query_store says; a member whose name
 * is longer than syslog-ng takes (255 bytes) left out. Returns 0, or the
 * engine's non-zero status. */
int pct_record_values_set(PctRecordValues *self, LogMessage *msg, struct log_values *v,
                          const struct log_session_record *r);

/* 1 if src[0..n) holds a byte pct_append_escaped escapes. */
gboolean pct_needs_escape(const gchar *src, gsize n);

/* Appends src[0..n) to out with control bytes and '\' escaped (as above). */
void pct_append_escaped(GString *out, const gchar *src, gsize n);

#endif
