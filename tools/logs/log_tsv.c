/* log_tsv.c - the body TSV and CSV rows share: the chosen fields of a
 * record, decoded, each value escaped; each mode's own rules (separator,
 * null, quoting, the formula guard) are its struct table_style, in
 * log_write_tsv.c and log_write_csv.c. */
#include <stdint.h>
#include <string.h>

#include "fmt_json.h"
#include "log_cells.h"
#include "log_field_text.h"
#include "log_formats.h"
#include "log_time.h"
#include "log_record_out.h"
#include "log_records.h"
#include "log_safe.h"
#include "log_session.h"
#include "log_tsv.h"
#include "log_writer.h"

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
    COL_TRUNCATED,
    COL_ISO
};
static void table_columns_find(struct log_table *tab)
{
    static const char *const parts[] = {"",       "method", "path", "query",    "protocol",
                                        "origin", "format", "line", "truncated"};
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
        tab->access_index[i] = -1;
        for (int k = RECORD_ACCESS_FIELDS - 1; k >= 0; k--)
            if (record_access_names[k].n == len && memcmp(name, record_access_names[k].p, len) == 0)
                tab->access_index[i] = (signed char)k;
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

size_t table_header(const struct log_table *tab, const struct table_style *st, int csv_safe,
                    char *out, size_t cap)
{
    size_t len = 0;
    for (int i = 0; i < tab->count; i++) {
        size_t n = strlen(tab->names[i]);
        if (len + n + 3 > cap)
            break;
        if (i > 0)
            out[len++] = st->sep;
        if (st->formula_guard && csv_safe &&
            log_safe_formula_start((unsigned char)tab->names[i][0]))
            out[len++] = '\'';
        memcpy(out + len, tab->names[i], n);
        len += n;
    }
    out[len++] = '\n';
    return len;
}

/* The escaped bytes of v at o (room: 4 per byte): a backslash, tab, CR, LF
 * and other controls as \\ \t \r \n \xHH (C1 controls too); a '"' doubled
 * when the cell is quoted. Returns the end. */
static char *table_escape(char *o, struct span v, int quoted)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < v.n; i++) {
        unsigned char c = (unsigned char)v.p[i];
        int c1 = c == 0xC2 && i + 1 < v.n && (unsigned char)v.p[i + 1] >= 0x80 &&
                 (unsigned char)v.p[i + 1] <= 0x9F;
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
        } else if (c == '"' && quoted) {
            *o++ = '"';
            *o++ = '"';
        } else {
            *o++ = (char)c;
        }
    }
    return o;
}

/* 1 if --csv-safe puts a "'" before a cell that starts with v. */
static int table_guarded(const struct worker *w, const struct table_style *st, struct span v)
{
    return st->formula_guard && w->ctx->cfg.csv_safe && v.n > 0 &&
           log_safe_formula_start((unsigned char)v.p[0]);
}

/* A cell's header (log_cells.h; room reserved). */
static void cell_head(struct worker *w, unsigned tag, size_t n)
{
    const uint32_t head = (uint32_t)n << 2 | tag;
    put_raw(w, (const char *)&head, LOG_CELL_HEAD);
}

/* A value as a TEXT cell: its hash, its bytes as they are. padded: v is
 * text of the line, which may be read 16 bytes at a time (log_scan.h). */
static void cell_text_of(struct worker *w, struct span v, int padded)
{
    buf_reserve(w->out, v.n + 40); /* the padded copy's overrun, the row's end */
    cell_head(w, LOG_CELL_TEXT, v.n);
    const uint32_t hash = log_cell_hash(v.p, v.n);
    put_raw(w, (const char *)&hash, sizeof hash);
    if (padded)
        log_copy_padded(w->out->data + w->out->len, v.p, v.n);
    else
        memcpy(w->out->data + w->out->len, v.p, v.n);
    w->out->len += v.n;
}

static void cell_text(struct worker *w, struct span v)
{
    cell_text_of(w, v, 0);
}

/* One value, escaped (table_escape); CSV quotes a value holding a comma, a
 * quote or a space at either end. */
static void table_value(struct worker *w, const struct table_style *st, struct span v)
{
    if (st->cells) {
        cell_text(w, v);
        return;
    }
    const struct log_table *tab = w->ctx->table;
    const int csv = st->quoting;
    buf_reserve(w->out, 4 * v.n + 16); /* --fields may name a field many times */
    size_t clean = log_scan_find(&tab->scan[csv], v.p, 0, v.n);
    int edge_space = csv && v.n > 0 && (v.p[0] == ' ' || v.p[v.n - 1] == ' ');
    int guard = table_guarded(w, st, v);
    if (clean == v.n && !edge_space && !guard) { /* most values: nothing to escape */
        put_raw(w, v.p, v.n);
        return;
    }
    char *o = w->out->data + w->out->len;
    int quote = csv && v.n > 0 &&
                (memchr(v.p, ',', v.n) != NULL || memchr(v.p, '"', v.n) != NULL || v.p[0] == ' ' ||
                 v.p[v.n - 1] == ' ');
    if (quote)
        *o++ = '"';
    if (guard)
        *o++ = '\'';
    o = table_escape(o, v, quote);
    if (quote)
        *o++ = '"';
    w->out->len = (size_t)(o - w->out->data);
}

/* A value of text (escapes kept, UTF-8 repaired): most are ASCII with
 * nothing to escape, written as they are after one scan. */
static void table_text(struct worker *w, const struct table_style *st, struct span t)
{
    const struct log_table *tab = w->ctx->table;
    const int csv = st->quoting;
    if (!csv && w->json_plain && t.p >= w->line.p && t.p + t.n <= w->line.p + w->line.n) {
        /* text of a plain line (ASCII, no control byte or '\\'): a TSV cell
         * as it is */
        if (st->cells) {
            cell_text_of(w, t, 1);
            return;
        }
        buf_reserve(w->out, t.n + 32);
        log_copy_padded(w->out->data + w->out->len, t.p, t.n); /* the line is padded */
        w->out->len += t.n;
        return;
    }
    if (log_scan_find(&tab->scan_ascii[csv], t.p, 0, t.n) == t.n &&
        !(csv && t.n > 0 && (t.p[0] == ' ' || t.p[t.n - 1] == ' ')) && !table_guarded(w, st, t)) {
        if (st->cells) {
            cell_text(w, t);
            return;
        }
        buf_reserve(w->out, t.n + 16); /* and the separator after it, as table_value */
        put_raw(w, t.p, t.n);
        return;
    }
    table_value(w, st, decode_bytes(w, t, &w->ctx->keep_all, 0));
}

static void table_null(struct worker *w, const struct table_style *st)
{
    if (st->cells) {
        buf_reserve(w->out, 16);
        cell_head(w, LOG_CELL_NULL, 0);
        return;
    }
    put_raw(w, st->null, st->null_len);
}

/* Text the writer names (a format, true, false), as a value. */
static void table_word(struct worker *w, const struct table_style *st, const char *word)
{
    if (st->cells)
        cell_text(w, span_of(word, word + strlen(word)));
    else
        put_str(w, word);
}

static void table_sep(struct worker *w, const struct table_style *st)
{
    if (!st->cells)
        put_raw(w, &st->sep, 1);
}

/* A NAME_iso value: its text; as cells its nanoseconds too (log_cells.h). */
static void table_iso(struct worker *w, const struct table_style *st, const char *iso, size_t k)
{
    if (!st->cells) {
        table_value(w, st, span_of(iso, iso + k));
        return;
    }
    int64_t ns;
    if (!log_iso_ns_memo(&w->iso_memo, iso, k, &ns))
        ns = INT64_MIN;
    buf_reserve(w->out, 16 + sizeof ns + k);
    cell_head(w, LOG_CELL_TIME, sizeof ns + k);
    put_raw(w, (const char *)&ns, sizeof ns);
    put_raw(w, iso, k);
}

/* What the columns of one record look up, found once per record: its
 * fields by name (open addressing: a column's field is then one probe, not
 * a pass over the fields) and its request target. */
#define ROW_SLOTS 256 /* more than LOG_RECORD_MAX, a power of 2 */
_Static_assert(LOG_RECORD_MAX < ROW_SLOTS && LOG_RECORD_MAX < 256,
               "a slot holds a field's index + 1");
struct table_row {
    const struct log_table *tab;
    const struct log_record *r;
    unsigned char slot[ROW_SLOTS]; /* a field's index + 1, 0: empty */
    int url_found;                 /* 1 once url and parts are known */
    int access;                    /* r's first fields are record_access_names: no slots */
    int split_found;               /* 1 once origin and query of target are known */
    size_t origin;
    const char *query;
    const struct log_field *url;
    struct request_parts parts;
    int has_parts; /* url has a target: parts are its */
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
    row->url_found = row->split_found = 0;
    row->access = 0;
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

/* Column i's field: by its name, or in JSON lines by the usual keys. A
 * combined or common record from the fast path: by position (its names are
 * known), or among its trailing fields. */
static const struct log_field *table_find(const struct table_row *row, int i)
{
    const struct log_table *tab = row->tab;
    if (row->access) {
        const struct log_record *r = row->r;
        const int fixed = r->format == LF_COMBINED ? RECORD_ACCESS_FIELDS : 7;
        const int k = tab->access_index[i];
        if (k >= 0 && k < fixed)
            return &r->f[k];
        for (int t = fixed; t < r->n; t++)
            if (r->f[t].name.n == tab->spans[i].n &&
                memcmp(r->f[t].name.p, tab->spans[i].p, tab->spans[i].n) == 0)
                return &r->f[t];
        return NULL;
    }
    const struct log_field *f = row_field(row, tab->spans[i]);
    return f == NULL && row->r->format == LF_JSON ? json_line_field(row->r, tab->names[i]) : f;
}

/* The request of a record (request_rank, as log_record_walk.h chooses it),
 * or NULL; *parts: 1 when it has a target, its parts in *q (not a URL of
 * "-", nor a request field that is not a request line: their parts are
 * null, the text of the latter is the "request" field). */
static const struct log_field *record_url(const struct log_record *r, struct request_parts *q,
                                          int *parts)
{
    const struct log_field *f = NULL;
    int best = 0;
    for (int i = 0; i < r->n && best < REQUEST_LINE; i++) {
        int rank = request_rank(&r->f[i], q);
        if (rank > best) {
            best = rank;
            f = &r->f[i];
        }
    }
    *parts = best == REQUEST_LINE || best == 3 || (best == 1 && f->v.n == 0);
    if (*parts && best != REQUEST_LINE) {
        q->method = q->protocol = span_of(f->v.p, f->v.p);
        q->target = f->v;
    }
    return f;
}

/* Puts the value of column i if it is request-derived; 0 if it is not. */
static int table_url_part(struct worker *w, const struct table_style *st, struct table_row *row,
                          int i)
{
    const struct log_table *tab = w->ctx->table;
    const int which = tab->columns[i];
    if (which < COL_METHOD || which > COL_ORIGIN)
        return 0;
    if (!row->url_found) {
        row->url = record_url(row->r, &row->parts, &row->has_parts);
        row->url_found = 1;
    }
    /* The request's own parts win over a field of the same name (nginx's
     * trailing path=..., a JSON line's "path" beside its "uri"): the keys
     * log_record_walk.h reserves for it. */
    const struct log_field *url = row->url;
    const int from_request =
        url != NULL && (url->kind == K_REQUEST || which == COL_PATH ||
                        (which != COL_METHOD && which != COL_PROTOCOL && !field_dash(url, url->v)));
    const struct log_field *plain = from_request ? NULL : table_find(row, i);
    if (plain != NULL && plain->kind != K_REQUEST && plain->kind != K_URL) {
        if (field_dash(plain, plain->v) || plain->v.n == 0) {
            table_null(w, st);
            return 1;
        }
        struct span t = field_text(w, plain, plain->v);
        if (plain->kind == K_PATH)
            table_value(w, st, decode_bytes(w, t, path_keep(w), path_flags(w)));
        else if (plain->kind == K_QUERY)
            table_value(w, st,
                        decode_bytes(w, t.n > 0 && t.p[0] == '?' ? span_of(t.p + 1, t.p + t.n) : t,
                                     &w->ctx->keep_query, query_flags(w)));
        else
            table_text(w, st, t);
        return 1;
    }
    if (!row->url_found) {
        row->url = record_url(row->r, &row->parts, &row->has_parts);
        row->url_found = 1;
    }
    const struct log_field *f = row->url;
    const struct span target = row->parts.target;
    if (f == NULL || !row->has_parts) {
        table_null(w, st);
        return 1;
    }
    if (which == COL_METHOD || which == COL_PROTOCOL) {
        struct span v = which == COL_METHOD ? row->parts.method : row->parts.protocol;
        if (v.n == 0)
            table_null(w, st);
        else
            table_text(w, st, field_text(w, f, v));
        return 1;
    }
    struct span u;
    size_t origin;
    const char *q;
    if (row->split_found) { /* path and query: the target split once */
        u = target;
        origin = row->origin;
        q = row->query;
    } else {
        u = field_text(w, f, target); /* below, only B_DECODED is written */
        origin = origin_length(u);
        q = memchr(u.p + origin, '?', u.n - origin);
        /* kept when the text is the line's own, which no later call moves */
        row->split_found = u.p == target.p && u.n == target.n;
        row->origin = origin;
        row->query = q;
    }
    if (which == COL_ORIGIN) /* text, as --json's origin: UTF-8 repaired */
        table_text(w, st, span_of(u.p, u.p + origin));
    else if (which == COL_PATH)
        table_value(w, st,
                    decode_bytes(w, span_of(u.p + origin, q != NULL ? q : u.p + u.n), path_keep(w),
                                 path_flags(w)));
    else if (q == NULL)
        table_null(w, st);
    else if (w->ctx->cfg.query == Q_KEEP)
        table_text(w, st, span_of(q + 1, u.p + u.n));
    else
        table_value(
            w, st, decode_bytes(w, span_of(q + 1, u.p + u.n), &w->ctx->keep_query, query_flags(w)));
    return 1;
}

static void table_column(struct worker *w, const struct table_style *st, const char *s, size_t n,
                         struct table_row *row, int i)
{
    const struct log_table *tab = w->ctx->table;
    const struct log_record *r = row->r;
    const int column = tab->columns[i];
    if (column == COL_FORMAT) {
        table_word(w, st, log_format_name(r->format));
        return;
    }
    if (column == COL_LINE) {
        table_text(w, st, span_of(s, s + n));
        return;
    }
    if (table_url_part(w, st, row, i))
        return;
    if (column == COL_TRUNCATED) { /* the server cut the line (log_cut.h) */
        table_word(w, st, r->truncated ? "true" : "false");
        return;
    }
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
                size_t k = log_time_iso_memo(&w->time_memo, date, f->v, iso);
                if (k > 0)
                    table_iso(w, st, iso, k);
                else
                    table_null(w, st);
                return;
            }
        }
    }
    const struct log_field *f = table_find(row, i);
    if (f == NULL || field_dash(f, f->v) || (f->v.n == 0 && f->quote == FQ_BARE)) {
        table_null(w, st);
        return;
    }
    struct span t = field_text(w, f, f->v);
    if (f->kind == K_REFERER && w->ctx->cfg.referer)
        table_value(w, st, decode_bytes(w, t, path_keep(w), path_flags(w)));
    else
        table_text(w, st, t);
}

/* 1 if column i's value is decoded text (a path, query, or referer with
 * --referer). */
static int column_decoded(const struct worker *w, const struct table_row *row, int i)
{
    const struct log_table *tab = w->ctx->table;
    if (tab->columns[i] == COL_PATH || tab->columns[i] == COL_QUERY)
        return 1;
    const struct log_field *f = table_find(row, i);
    return f != NULL && (f->kind == K_PATH || f->kind == K_QUERY ||
                         (f->kind == K_REFERER && w->ctx->cfg.referer));
}

void table_record(struct worker *w, const struct table_style *st, const char *s, size_t n,
                  const struct log_record *r)
{
    const struct log_table *tab = w->ctx->table;
    if (w->collect != NULL) { /* records wanted, not rows (log_records.h) */
        log_records_collect(w->collect, s, n, r, 0);
        return;
    }
    struct table_row row;
    if (w->access_record) {
        row.r = r;
        row.url_found = row.split_found = 0;
        row.access = 1;
    } else {
        row_start(&row, r);
    }
    row.tab = tab;
    for (int i = 0; i < tab->count; i++) {
        if (i > 0)
            table_sep(w, st);
        const size_t start = w->out->len;
        table_column(w, st, s, n, &row, i);
        if (i == 0 && !st->cells && w->out->len > start && w->out->data[start] == '#' &&
            column_decoded(w, &row, 0))
            log_safe_hash_guard(w, start); /* a row is a line too */
    }
}

void table_unparsed(struct worker *w, const struct table_style *st, const char *s, size_t n,
                    int directive)
{
    const struct log_table *tab = w->ctx->table;
    if (w->collect != NULL) {
        log_records_collect(w->collect, s, n, NULL, directive);
        return;
    }
    buf_reserve(w->out, 16 * (size_t)tab->count + 64);
    for (int i = 0; i < tab->count; i++) {
        if (i > 0)
            table_sep(w, st);
        if (tab->columns[i] == COL_FORMAT)
            table_word(w, st, directive ? "directive" : "unparsed");
        else if (tab->columns[i] == COL_LINE)
            table_text(w, st, span_of(s, s + n));
        else
            table_null(w, st);
        buf_reserve(w->out, 16 * (size_t)tab->count + 64);
    }
}

/* The columns of a row before (upto: the "line" column, or all) or after
 * it, as for a line that does not parse. */
static void long_columns(struct worker *w, const struct table_style *st, int from, int upto)
{
    const struct log_table *tab = w->ctx->table;
    for (int i = from; i < upto; i++) {
        buf_reserve(w->out, 64);
        if (i > 0)
            table_sep(w, st);
        if (tab->columns[i] == COL_FORMAT)
            table_word(w, st, "unparsed");
        else /* a `line` column after the first: null, as the line streams once */
            table_null(w, st);
    }
}

static int line_column(const struct log_table *tab)
{
    for (int i = 0; i < tab->count; i++)
        if (tab->columns[i] == COL_LINE)
            return i;
    return -1;
}

void table_long_start(struct worker *w, const struct table_style *st)
{
    const struct log_table *tab = w->ctx->table;
    w->json_plain = 0; /* the pieces are not the line process_chunk scanned */
    int line = line_column(w->ctx->table);
    long_columns(w, st, 0, line >= 0 ? line : tab->count);
    if (line < 0)
        return;
    buf_reserve(w->out, 64);
    if (line > 0)
        table_sep(w, st);
    if (st->quoting) /* its content is not known yet: always quoted */
        put_raw(w, "\"", 1);
    w->long_at_start = 1;
}

void table_long_piece(struct worker *w, const struct table_style *st, const char *p, size_t n)
{
    if (line_column(w->ctx->table) < 0)
        return;
    struct span v = decode_bytes(w, span_of(p, p + n), &w->ctx->keep_all, 0);
    if (st->cells) {
        if (v.n > 0) {
            buf_reserve(w->out, v.n + 16);
            cell_head(w, LOG_CELL_PIECE, v.n);
            put_raw(w, v.p, v.n);
        }
        return;
    }
    buf_reserve(w->out, 4 * v.n + 16);
    if (w->long_at_start && v.n > 0) {
        if (table_guarded(w, st, v))
            put_raw(w, "'", 1);
        w->long_at_start = 0;
    }
    char *o = table_escape(w->out->data + w->out->len, v, st->quoting);
    w->out->len = (size_t)(o - w->out->data);
}

void table_long_end(struct worker *w, const struct table_style *st)
{
    const struct log_table *tab = w->ctx->table;
    int line = line_column(w->ctx->table);
    if (line < 0)
        return;
    buf_reserve(w->out, 64);
    if (st->quoting)
        put_raw(w, "\"", 1);
    if (st->cells) /* the line's last piece: empty (the pieces were written) */
        cell_text(w, span_of("", ""));
    long_columns(w, st, line + 1, tab->count);
}

/* ------------------------------------------------ the writers' entries
 * Every table writer (log_write_tsv.c, log_write_csv.c, log_write_cells.c)
 * is these with its own style (log_writer.table). */

static const struct table_style *style_of(const struct worker *w)
{
    return w->ctx->writer->table;
}

void table_writer_access(struct worker *w, const char *s, size_t n, const struct access *a,
                         enum log_format_id fmt)
{
    if (!record_process_access(w, s, n, a, fmt)) {
        w->st->unparsed++;
        table_unparsed(w, style_of(w), s, n, 0);
    }
}

void table_writer_w3c(struct worker *w, const char *s, size_t n, const struct span *f, int count,
                      const struct w3c_layout *l)
{
    record_process_w3c(w, s, n, f, count, l);
}

void table_writer_field(struct worker *w, const char *s, size_t n, struct span u)
{
    (void)u; /* --field N is refused with a table (log_session.c) */
    w->st->unparsed++;
    table_unparsed(w, style_of(w), s, n, 0);
}

void table_writer_record(struct worker *w, const char *s, size_t n, const struct log_record *r)
{
    table_record(w, style_of(w), s, n, r);
}

void table_writer_unparsed(struct worker *w, const char *s, size_t n, int directive)
{
    table_unparsed(w, style_of(w), s, n, directive);
}

void table_writer_long_start(struct worker *w)
{
    table_long_start(w, style_of(w));
}

void table_writer_long_piece(struct worker *w, const char *p, size_t n)
{
    table_long_piece(w, style_of(w), p, n);
}

void table_writer_long_end(struct worker *w)
{
    table_long_end(w, style_of(w));
}

size_t table_writer_header(const struct log_ctx *ctx, char *out, size_t cap)
{
    return table_header(ctx->table, ctx->writer->table, ctx->cfg.csv_safe, out, cap);
}
