/* log_tsv.c - TSV and CSV rows of chosen fields. */
#include <stdint.h>
#include <string.h>

#include "fmt_json.h"
#include "log_field_text.h"
#include "log_formats.h"
#include "log_records.h"
#include "log_time.h"
#include "log_tsv.h"

static const char *const default_fields[] = {"format", "remote", "time",  "method",  "path",
                                             "query",  "status", "bytes", "referer", "agent"};
/* What each column is, found once: the request's parts, or a field. */
enum column {
    COL_FIELD,
    COL_METHOD,
    COL_PATH,
    COL_QUERY,
    COL_PROTOCOL,
    COL_ORIGIN,
    COL_FORMAT,
    COL_LINE,
    COL_ISO
};

static void table_columns_find(struct log_table *tab)
{
    static const char *const parts[] = {"",         "method", "path",   "query",
                                        "protocol", "origin", "format", "line"};
    for (int i = 0; i < tab->count; i++) {
        const char *name = tab->names[i];
        size_t len = strlen(name);
        tab->spans[i] = span_of(name, name + len);
        tab->columns[i] = COL_FIELD;
        for (int k = 1; k < (int)(sizeof parts / sizeof *parts); k++)
            if (strcmp(name, parts[k]) == 0)
                tab->columns[i] = (unsigned char)k;
        if (len > 4 && strcmp(name + len - 4, "_iso") == 0)
            tab->columns[i] = COL_ISO;
    }
    log_scan_init(&tab->scan[0], 0x20, 0, "\\\x7f\xc2");
    log_scan_init(&tab->scan[1], 0x20, 0, "\\\x7f\xc2\",");
    log_scan_init(&tab->scan_ascii[0], 0x20, 1, "\\\x7f");
    log_scan_init(&tab->scan_ascii[1], 0x20, 1, "\\\x7f\",");
}

const char *table_fields_set(struct log_table *tab, const char *list)
{
    tab->count = 0;
    if (list == NULL) {
        for (size_t i = 0; i < sizeof default_fields / sizeof *default_fields; i++)
            tab->names[tab->count++] = default_fields[i];
        table_columns_find(tab);
        return NULL;
    }
    if (strlen(list) >= sizeof tab->list)
        return "--fields is too long";
    strcpy(tab->list, list);
    for (char *p = tab->list; *p;) {
        char *comma = strchr(p, ',');
        if (comma != NULL)
            *comma = '\0';
        if (*p == '\0')
            return "--fields has an empty name";
        for (const char *c = p; *c; c++)
            if ((unsigned char)*c <= ' ' || *c == '"' || *c == '\\' || (unsigned char)*c >= 0x7f)
                return "--fields names are printable ASCII without spaces, quotes or backslashes";
        if (tab->count == TABLE_MAX_FIELDS)
            return "--fields names at most 64 fields";
        tab->names[tab->count++] = p;
        if (comma == NULL)
            break;
        p = comma + 1;
    }
    table_columns_find(tab);
    return NULL;
}

size_t table_header(const struct log_table *tab, char *out, size_t cap, int csv)
{
    size_t len = 0;
    for (int i = 0; i < tab->count; i++) {
        size_t n = strlen(tab->names[i]);
        if (len + n + 2 > cap)
            break;
        if (i > 0)
            out[len++] = csv ? ',' : '\t';
        memcpy(out + len, tab->names[i], n);
        len += n;
    }
    out[len++] = '\n';
    return len;
}

/* One value: a backslash, tab, CR, LF and other controls as \\ \t \r \n
 * \xHH (C1 controls too, unless --bytes); CSV then quotes a value holding
 * a comma, a quote or a space at either end. */
static void table_value(struct worker *w, struct span v)
{
    const struct log_table *tab = w->ctx->table;
    int csv = w->ctx->cfg.table == 'c';
    buf_reserve(w->out, 4 * v.n + 8); /* --fields may name a field many times */
    size_t clean = log_scan_find(&tab->scan[csv], v.p, 0, v.n);
    int edge_space = csv && v.n > 0 && (v.p[0] == ' ' || v.p[v.n - 1] == ' ');
    if (clean == v.n && !edge_space) { /* most values: nothing to escape */
        put_raw(w, v.p, v.n);
        return;
    }
    char *o = w->out->data + w->out->len;
    int quote = csv && v.n > 0 &&
                (memchr(v.p, ',', v.n) != NULL || memchr(v.p, '"', v.n) != NULL || v.p[0] == ' ' ||
                 v.p[v.n - 1] == ' ');
    if (quote)
        *o++ = '"';
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < v.n; i++) {
        unsigned char c = (unsigned char)v.p[i];
        int c1 = c == 0xC2 && i + 1 < v.n && (unsigned char)v.p[i + 1] >= 0x80 &&
                 (unsigned char)v.p[i + 1] <= 0x9F && !w->ctx->cfg.bytes;
        if (c == '\\' || c == '\t' || c == '\n' || c == '\r') {
            *o++ = '\\';
            *o++ = c == '\\' ? '\\' : c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
        } else if (c < 0x20 || c == 0x7f || c1) {
            for (int k = 0; k <= c1; k++) {
                c = (unsigned char)v.p[i + (size_t)k];
                *o++ = '\\';
                *o++ = 'x';
                *o++ = hex[c >> 4];
                *o++ = hex[c & 15];
            }
            i += (size_t)c1;
        } else if (c == '"' && quote) {
            *o++ = '"';
            *o++ = '"';
        } else {
            *o++ = (char)c;
        }
    }
    if (quote)
        *o++ = '"';
    w->out->len = (size_t)(o - w->out->data);
}

/* A value of text (escapes kept, UTF-8 repaired): most are ASCII with
 * nothing to escape, written as they are after one scan. */
static void table_text(struct worker *w, struct span t)
{
    const struct log_table *tab = w->ctx->table;
    const int csv = w->ctx->cfg.table == 'c';
    if (log_scan_find(&tab->scan_ascii[csv], t.p, 0, t.n) == t.n &&
        !(csv && t.n > 0 && (t.p[0] == ' ' || t.p[t.n - 1] == ' '))) {
        buf_reserve(w->out, t.n + 8); /* and the separator after it, as table_value */
        put_raw(w, t.p, t.n);
        return;
    }
    table_value(w, decode_bytes(w, t, &w->ctx->keep_all, 0));
}

static void table_null(struct worker *w)
{
    if (w->ctx->cfg.table == 't')
        put_raw(w, "\\N", 2);
}

/* What the columns of one record look up, found once per record: its
 * fields by name (open addressing: a column's field is then one probe, not
 * a pass over the fields) and its request target. */
#define ROW_SLOTS 256 /* more than LOG_RECORD_MAX, a power of 2 */
_Static_assert(LOG_RECORD_MAX < ROW_SLOTS && LOG_RECORD_MAX < 256,
               "a slot holds a field's index + 1");
struct table_row {
    const struct log_record *r;
    const struct log_table *tab;
    unsigned char slot[ROW_SLOTS]; /* a field's index + 1, 0: empty */
    int url_found;                 /* 1 once url, target and rest are known */
    const struct log_field *url;
    struct span target, rest;
};

static unsigned name_slot(struct span name)
{
    return ((unsigned)name.n * 31u + (unsigned char)name.p[0] * 7u +
            (unsigned char)name.p[name.n - 1]) &
           (ROW_SLOTS - 1);
}

static void row_start(struct table_row *row, const struct log_record *r)
{
    row->r = r;
    row->url_found = 0;
    memset(row->slot, 0, sizeof row->slot);
    for (int i = 0; i < r->n; i++) {
        const struct span name = r->f[i].name;
        if (name.n == 0)
            continue;
        unsigned h = name_slot(name);
        int taken = 0; /* the first field of a name is the one found */
        for (; row->slot[h] != 0 && !taken; h = (h + 1) & (ROW_SLOTS - 1)) {
            const struct span other = r->f[row->slot[h] - 1].name;
            taken = other.n == name.n && memcmp(other.p, name.p, name.n) == 0;
        }
        if (!taken)
            row->slot[h] = (unsigned char)(i + 1);
    }
}

/* The first field named name, or NULL (as record_find). */
static const struct log_field *row_field(const struct table_row *row, struct span name)
{
    for (unsigned h = name_slot(name); row->slot[h] != 0; h = (h + 1) & (ROW_SLOTS - 1)) {
        const struct log_field *f = &row->r->f[row->slot[h] - 1];
        if (f->name.n == name.n && memcmp(f->name.p, name.p, name.n) == 0)
            return f;
    }
    return NULL;
}

/* Column i's field: by its name, or in JSON lines by the usual keys. */
static const struct log_field *table_find(const struct table_row *row, int i)
{
    const struct log_table *tab = row->tab;
    const struct log_field *f = row_field(row, tab->spans[i]);
    return f == NULL && row->r->format == LF_JSON ? json_line_field(row->r, tab->names[i]) : f;
}

/* The URL-bearing field of a record and its target. */
static const struct log_field *record_url(const struct log_record *r, struct span *target,
                                          struct span *rest)
{
    for (int i = 0; i < r->n; i++) {
        const struct log_field *f = &r->f[i];
        struct span method;
        if (f->kind == K_REQUEST && split_request(f->v, &method, target)) {
            *rest = span_of(target->p + target->n, f->v.p + f->v.n);
            return f;
        }
        if (f->kind == K_URL && !span_is(f->v, "-")) {
            *target = f->v;
            *rest = span_of(f->v.p, f->v.p);
            return f;
        }
    }
    return NULL;
}

/* Puts the value of column i if it is request-derived; 0 if it is not. */
static int table_url_part(struct worker *w, struct table_row *row, int i)
{
    const struct log_table *tab = w->ctx->table;
    const int which = tab->columns[i];
    if (which < COL_METHOD || which > COL_ORIGIN)
        return 0;
    const struct log_field *plain = table_find(row, i);
    if (plain != NULL && plain->kind != K_REQUEST && plain->kind != K_URL) {
        if (span_is(plain->v, "-") || plain->v.n == 0) {
            table_null(w);
            return 1;
        }
        struct span t = field_text(w, plain, plain->v);
        if (plain->kind == K_PATH)
            table_value(w, decode_bytes(w, t, path_keep(w), path_flags(w)));
        else if (plain->kind == K_QUERY)
            table_value(w,
                        decode_bytes(w, t.n > 0 && t.p[0] == '?' ? span_of(t.p + 1, t.p + t.n) : t,
                                     &w->ctx->keep_query, query_flags(w)));
        else
            table_text(w, t);
        return 1;
    }
    if (!row->url_found) {
        row->url = record_url(row->r, &row->target, &row->rest);
        row->url_found = 1;
    }
    const struct log_field *f = row->url;
    const struct span target = row->target, rest = row->rest;
    if (f == NULL) {
        table_null(w);
        return 1;
    }
    if (which == COL_METHOD || which == COL_PROTOCOL) {
        struct span v = which == COL_METHOD
                            ? span_of(f->v.p, target.p > f->v.p ? target.p - 1 : f->v.p)
                            : span_of(rest.p + (rest.n > 0), rest.p + rest.n);
        if (v.n == 0)
            table_null(w);
        else
            table_text(w, field_text(w, f, v));
        return 1;
    }
    struct span u = field_text(w, f, target); /* below, only B_DECODED is written */
    size_t origin = origin_length(u);
    const char *q = memchr(u.p + origin, '?', u.n - origin);
    if (which == COL_ORIGIN)
        table_value(w, span_of(u.p, u.p + origin));
    else if (which == COL_PATH)
        table_value(w, decode_bytes(w, span_of(u.p + origin, q != NULL ? q : u.p + u.n),
                                    path_keep(w), path_flags(w)));
    else if (q == NULL)
        table_null(w);
    else if (w->ctx->cfg.query == Q_KEEP)
        table_text(w, span_of(q + 1, u.p + u.n));
    else
        table_value(
            w, decode_bytes(w, span_of(q + 1, u.p + u.n), &w->ctx->keep_query, query_flags(w)));
    return 1;
}

static void table_column(struct worker *w, const char *s, size_t n, struct table_row *row, int i)
{
    const struct log_table *tab = w->ctx->table;
    const struct log_record *r = row->r;
    const int column = tab->columns[i];
    if (column == COL_FORMAT) {
        put_str(w, log_format_name(r->format));
        return;
    }
    if (column == COL_LINE) {
        table_text(w, span_of(s, s + n));
        return;
    }
    if (table_url_part(w, row, i))
        return;
    if (column == COL_ISO) {
        const struct span name = tab->spans[i];
        for (int k = 0; k < r->n; k++) {
            const struct log_field *f = &r->f[k];
            if (f->kind == K_TIME && f->name.n == name.n - 4 &&
                memcmp(f->name.p, name.p, name.n - 4) == 0) {
                char iso[LOG_ISO_MAX];
                const struct log_field *d =
                    span_is(f->name, "time") ? record_find(r, "date") : NULL;
                struct span date = d != NULL ? d->v : span_of("", "");
                size_t k = log_time_iso(date, f->v, iso);
                if (k > 0)
                    table_value(w, span_of(iso, iso + k));
                else
                    table_null(w);
                return;
            }
        }
    }
    const struct log_field *f = table_find(row, i);
    if (f == NULL || span_is(f->v, "-") || (f->v.n == 0 && f->quote == FQ_BARE)) {
        table_null(w);
        return;
    }
    struct span t = field_text(w, f, f->v);
    if (f->kind == K_REFERER && w->ctx->cfg.referer)
        table_value(w, decode_bytes(w, t, path_keep(w), path_flags(w)));
    else
        table_text(w, t);
}

void table_record(struct worker *w, const char *s, size_t n, const struct log_record *r)
{
    const struct log_table *tab = w->ctx->table;
    if (w->collect != NULL) { /* records wanted, not rows (log_records.h) */
        log_records_collect(w->collect, s, n, r, 0);
        return;
    }
    struct table_row row;
    row_start(&row, r);
    row.tab = tab;
    for (int i = 0; i < tab->count; i++) {
        if (i > 0)
            put_raw(w, w->ctx->cfg.table == 'c' ? "," : "\t", 1);
        table_column(w, s, n, &row, i);
    }
}

void table_unparsed(struct worker *w, const char *s, size_t n, int directive)
{
    const struct log_table *tab = w->ctx->table;
    buf_reserve(w->out, 8 * n + 16 * (size_t)tab->count + 64);
    w->st->unparsed += (uint64_t)!directive;
    if (w->collect != NULL) {
        log_records_collect(w->collect, s, n, NULL, directive);
        return;
    }
    for (int i = 0; i < tab->count; i++) {
        if (i > 0)
            put_raw(w, w->ctx->cfg.table == 'c' ? "," : "\t", 1);
        if (tab->columns[i] == COL_FORMAT)
            put_str(w, directive ? "directive" : "unparsed");
        else if (tab->columns[i] == COL_LINE)
            table_text(w, span_of(s, s + n));
        else
            table_null(w);
    }
}
