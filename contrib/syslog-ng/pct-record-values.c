/* pct-record-values.c - a record's members (log_record_json: the keys,
 * decoding and nulls of `pct logs --json`) as name-value pairs of a
 * syslog-ng message. No raw control byte reaches a value: the engine
 * decodes (and repairs UTF-8), this file escapes. */
#include <string.h>

#include "str-repr/encode.h"

#include "pct-record-values.h"

void pct_record_values_init(PctRecordValues *self, const gchar *prefix, enum pct_query_store query)
{
    self->prefix = prefix;
    self->query = query;
    self->name = g_string_sized_new(64);
    self->value = g_string_sized_new(256);
    self->json = g_string_sized_new(256);
    /* (its keys are copies: an item's text moves as values are added) */
    self->query_index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    self->query_names = g_ptr_array_new();
    self->query_counts = g_array_new(FALSE, FALSE, sizeof(guint));
    self->handles = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    self->pair_name = g_string_sized_new(32);
    for (guint i = 0; i < PCT_MEMBER_SLOTS; i++) {
        self->members[i].key = g_string_sized_new(16);
        self->members[i].handle = 0;
    }
}

static void query_reset(PctRecordValues *self)
{
    g_hash_table_remove_all(self->query_index);
    for (guint i = 0; i < self->query_names->len; i++)
        g_string_free(g_ptr_array_index(self->query_names, i), TRUE);
    g_ptr_array_set_size(self->query_names, 0);
    g_array_set_size(self->query_counts, 0);
}

void pct_record_values_clear(PctRecordValues *self)
{
    query_reset(self);
    g_hash_table_destroy(self->query_index);
    g_ptr_array_free(self->query_names, TRUE);
    g_array_free(self->query_counts, TRUE);
    g_string_free(self->name, TRUE);
    g_string_free(self->value, TRUE);
    g_string_free(self->json, TRUE);
    g_string_free(self->pair_name, TRUE);
    g_hash_table_destroy(self->handles);
    for (guint i = 0; i < PCT_MEMBER_SLOTS; i++)
        g_string_free(self->members[i].key, TRUE);
}

static const char hex[] = "0123456789abcdef";

/* 1 for a byte that is escaped: C0 controls, DEL, '\'; 0xC2 starts a C1
 * control when the byte after it is 0x80-0x9F. */
static inline gboolean is_special(guchar c)
{
    return c < 0x20 || c == 0x7f || c == '\\' || c == 0xc2;
}

gboolean pct_needs_escape(const gchar *src, gsize n)
{
    for (gsize i = 0; i < n; i++)
        if (is_special((guchar)src[i]))
            return TRUE;
    return FALSE;
}

static void append_hex(GString *out, const char *prefix, guchar c)
{
    g_string_append(out, prefix);
    g_string_append_c(out, hex[c >> 4]);
    g_string_append_c(out, hex[c & 15]);
}

void pct_append_escaped(GString *out, const gchar *src, gsize n)
{
    gsize i = 0, run = 0;
    while (i < n) {
        const guchar c = (guchar)src[i];
        if (!is_special(c)) {
            i++;
            continue;
        }
        g_string_append_len(out, src + run, (gssize)(i - run));
        if (c == '\\') {
            g_string_append(out, "\\\\");
            i++;
        } else if (c == 0xc2) {
            if (i + 1 < n && (guchar)src[i + 1] >= 0x80 && (guchar)src[i + 1] <= 0x9f) {
                append_hex(out, "\\x", c);
                append_hex(out, "\\x", (guchar)src[i + 1]);
                i += 2;
            } else {
                g_string_append_c(out, (gchar)c);
                i++;
            }
        } else {
            append_hex(out, "\\x", c);
            i++;
        }
        run = i;
    }
    g_string_append_len(out, src + run, (gssize)(n - run));
}

/* A JSON string: '"' and '\' escaped (its text holds no control byte:
 * pct_append_escaped). */
static void append_json_string(GString *out, const gchar *src, gsize n)
{
    g_string_append_c(out, '"');
    for (gsize i = 0; i < n; i++) {
        if (src[i] == '"' || src[i] == '\\')
            g_string_append_c(out, '\\');
        g_string_append_c(out, src[i]);
    }
    g_string_append_c(out, '"');
}

/* A literal's syslog-ng type: an integer that fits int64, true/false;
 * anything else (a fraction, an exponent, a huge integer) as JSON text,
 * so that format-json writes it as it was. */
static LogMessageValueType literal_type(const gchar *p, gsize n)
{
    if ((n == 4 && memcmp(p, "true", 4) == 0) || (n == 5 && memcmp(p, "false", 5) == 0))
        return LM_VT_BOOLEAN;
    gsize i = n > 0 && p[0] == '-' ? 1 : 0;
    if (i == n || n - i > 18)
        return LM_VT_JSON;
    for (; i < n; i++)
        if (p[i] < '0' || p[i] > '9')
            return LM_VT_JSON;
    return LM_VT_INT64;
}

/* The walk of one record (log_json_fn's context). */
typedef struct {
    PctRecordValues *v;
    LogMessage *msg;
    gsize prefix_len;
    gint depth;
    gboolean query;         /* in the query list, stored by name */
    gint pair_at;           /* query: 0 name, 1 value next */
    GString *pair_name;     /* query: the pair's name, escaped */
    gboolean need_comma[8]; /* JSON text: a member before, per depth */
    guint member;           /* the top-level member's number */
    NVHandle handle;        /* its name's handle (0: look it up by name) */
} Walk;

/* Names seen are kept with their handles: syslog-ng's registry of names
 * takes a global lock per look-up. Query names come from the logs, so the
 * cache is emptied when it grows past this. */
#define HANDLE_CACHE_MAX 4096
#define PCT_NAME_MAX 255 /* syslog-ng's limit on a name's length */

/* The handle of the name in v->name (0: a name syslog-ng refuses, longer
 * than PCT_NAME_MAX bytes). */
static NVHandle name_handle(PctRecordValues *v)
{
    /* syslog-ng refuses longer names, with an error message each time: a
     * log line (a JSON line's key, a query name) must not flood the
     * processor's own log. Such a pair is left out. */
    if (v->name->len > PCT_NAME_MAX)
        return 0;
    NVHandle handle = GPOINTER_TO_UINT(g_hash_table_lookup(v->handles, v->name->str));
    if (handle == 0) {
        handle = log_msg_get_value_handle(v->name->str);
        if (handle == 0)
            return 0;
        if (g_hash_table_size(v->handles) >= HANDLE_CACHE_MAX)
            g_hash_table_remove_all(v->handles);
        g_hash_table_insert(v->handles, g_strdup(v->name->str), GUINT_TO_POINTER(handle));
    }
    return handle;
}

/* The handle of top-level member number i named key[0..n): the members of
 * a format come in the same order line after line, so the last name seen
 * at i is compared first (no name built, no hashing). */
static NVHandle member_handle(Walk *w, const gchar *key, gsize n)
{
    PctRecordValues *v = w->v;
    PctMemberSlot *slot = w->member < PCT_MEMBER_SLOTS ? &v->members[w->member] : NULL;
    if (slot != NULL && slot->handle != 0 && slot->key->len == n &&
        memcmp(slot->key->str, key, n) == 0)
        return slot->handle;
    g_string_truncate(v->name, w->prefix_len);
    pct_append_escaped(v->name, key, n);
    NVHandle handle = name_handle(v);
    if (slot != NULL) {
        g_string_assign(slot->key, "");
        g_string_append_len(slot->key, key, (gssize)n);
        slot->handle = handle;
    }
    return handle;
}

static void set_handle(Walk *w, NVHandle handle, const gchar *value, gssize n,
                       LogMessageValueType type)
{
    if (handle != 0)
        log_msg_set_value_with_type(w->msg, handle, value, n, type);
}

/* A member's value, escaped (copied only when something is). */
static void set_escaped(Walk *w, NVHandle handle, const gchar *p, gsize n)
{
    if (!pct_needs_escape(p, n)) {
        set_handle(w, handle, p, (gssize)n, LM_VT_STRING);
        return;
    }
    g_string_truncate(w->v->value, 0);
    pct_append_escaped(w->v->value, p, n);
    set_handle(w, handle, w->v->value->str, (gssize)w->v->value->len, LM_VT_STRING);
}

/* PREFIXquery.NAME for each name of the query (an empty one: "_"). */
static void query_finish(Walk *w)
{
    PctRecordValues *v = w->v;
    for (guint i = 0; i < v->query_names->len; i++) {
        GString *item = g_ptr_array_index(v->query_names, i);
        /* item: the escaped name, a NUL, the list (or the one value) */
        const gsize name_len = strlen(item->str);
        g_string_truncate(v->name, w->prefix_len);
        g_string_append(v->name, "query.");
        g_string_append(v->name, name_len > 0 ? item->str : "_");
        const guint count = g_array_index(v->query_counts, guint, i);
        set_handle(w, name_handle(v), item->str + name_len + 1, (gssize)(item->len - name_len - 1),
                   count > 1 ? LM_VT_LIST : LM_VT_STRING);
    }
    query_reset(v);
}

static void query_pair_value(Walk *w, const gchar *p, gsize n)
{
    PctRecordValues *v = w->v;
    gpointer at;
    GString *item;
    guint *count;
    if (g_hash_table_lookup_extended(v->query_index, w->pair_name->str, NULL, &at)) {
        const guint i = GPOINTER_TO_UINT(at);
        item = g_ptr_array_index(v->query_names, i);
        count = &g_array_index(v->query_counts, guint, i);
        if (*count == 1) { /* it is a list now: its first value in list form */
            const gsize name_len = strlen(item->str);
            GString *first =
                g_string_new_len(item->str + name_len + 1, (gssize)(item->len - name_len - 1));
            g_string_truncate(item, name_len + 1);
            str_repr_encode_append(item, first->str, (gssize)first->len, ",");
            g_string_free(first, TRUE);
        }
        g_string_append_c(item, ',');
        g_string_truncate(v->value, 0);
        pct_append_escaped(v->value, p, n);
        str_repr_encode_append(item, v->value->str, (gssize)v->value->len, ",");
        (*count)++;
        return;
    }
    item = g_string_sized_new(w->pair_name->len + n + 8);
    g_string_append_len(item, w->pair_name->str, (gssize)w->pair_name->len);
    g_string_append_c(item, '\0');
    pct_append_escaped(item, p, n);
    const guint one = 1, i = v->query_names->len;
    g_ptr_array_add(v->query_names, item);
    g_array_append_val(v->query_counts, one);
    g_hash_table_insert(v->query_index, g_strdup(w->pair_name->str), GUINT_TO_POINTER(i));
}

static void json_comma(Walk *w)
{
    if (w->need_comma[w->depth])
        g_string_append_c(w->v->json, ',');
    w->need_comma[w->depth] = TRUE;
}

static int on_member(void *ctx, int event, const char *p, size_t n)
{
    Walk *w = ctx;
    PctRecordValues *v = w->v;
    if (p == NULL) /* a null, a list's start or end */
        p = "", n = 0;
    if (w->depth == 0) {
        switch (event) {
        case LOG_JSON_KEY:
            w->handle = member_handle(w, p, n);
            w->query = v->query == PCT_QUERY_BY_NAME && n == 5 && memcmp(p, "query", 5) == 0;
            w->member++;
            return 0;
        case LOG_JSON_STRING:
            set_escaped(w, w->handle, p, n);
            return 0;
        case LOG_JSON_LITERAL:
            set_handle(w, w->handle, p, (gssize)n, literal_type(p, n));
            return 0;
        case LOG_JSON_NULL:
            return 0;
        case LOG_JSON_LIST:
            w->depth = 1;
            g_string_assign(v->json, "[");
            memset(w->need_comma, 0, sizeof w->need_comma);
            return 0;
        default:
            return 1; /* an END at the top: not a walk of this shape */
        }
    }
    if (w->query) {
        if (event == LOG_JSON_LIST) {
            w->depth++;
            w->pair_at = 0;
        } else if (event == LOG_JSON_END) {
            if (--w->depth == 0)
                query_finish(w);
        } else if (w->depth == 2 && (event == LOG_JSON_STRING || event == LOG_JSON_NULL)) {
            if (event == LOG_JSON_NULL)
                n = 0;
            if (w->pair_at++ == 0) {
                g_string_truncate(w->pair_name, 0);
                pct_append_escaped(w->pair_name, p, n);
            } else {
                query_pair_value(w, p, n);
            }
        }
        return 0;
    }
    switch (event) {
    case LOG_JSON_LIST:
        json_comma(w);
        g_string_append_c(v->json, '[');
        if (++w->depth >= (gint)G_N_ELEMENTS(w->need_comma))
            return 1;
        w->need_comma[w->depth] = FALSE;
        return 0;
    case LOG_JSON_END:
        g_string_append_c(v->json, ']');
        if (--w->depth == 0)
            set_handle(w, w->handle, v->json->str, (gssize)v->json->len, LM_VT_JSON);
        return 0;
    case LOG_JSON_STRING:
        /* escaped as a value is, then as JSON */
        json_comma(w);
        g_string_truncate(v->value, 0);
        pct_append_escaped(v->value, p, n);
        append_json_string(v->json, v->value->str, v->value->len);
        return 0;
    case LOG_JSON_LITERAL:
        json_comma(w);
        g_string_append_len(v->json, p, (gssize)n);
        return 0;
    case LOG_JSON_NULL:
        json_comma(w);
        g_string_append(v->json, "null");
        return 0;
    default:
        return 1;
    }
}

int pct_record_values_set(PctRecordValues *self, LogMessage *msg, struct log_values *v,
                          const struct log_session_record *r)
{
    Walk w = {.v = self, .msg = msg};
    g_string_assign(self->name, self->prefix);
    w.prefix_len = self->name->len;
    w.pair_name = self->pair_name;
    int status = log_record_json(v, r, on_member, &w);
    query_reset(self);
    return status;
}
