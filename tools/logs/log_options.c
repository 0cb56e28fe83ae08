/* log_options.c - the command line of `pct logs`, and its --help. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "log_formats.h"
#include "log_options.h"
#include "log_tsv.h"
#include "log_session.h"
#include "log_util.h"
#include "pct.h"

static void print_logs_help(void)
{
    fputs("Usage: pct logs [OPTION...] [FILE...]\n"
          "Decode the URLs in web server access logs: each line is written with its\n"
          "request target decoded (or as JSON, TSV or CSV). Without FILE, or with '-':\n"
          "stdin.\n"
          "\n"
          "Formats:\n"
          "  --format NAME      the log's format, one of the list below (default auto:\n"
          "                     found per file, and per line where a file mixes formats)\n"
          "  --list-formats     list the formats: NAME<TAB>ALIASES<TAB>DESCRIPTION\n"
          "  --log-format STR   a custom format: an nginx log_format string ($var), an\n"
          "                     Apache LogFormat string (%h %>s %{Referer}i ...) or a\n"
          "                     HAProxy log-format string (%ci:%cp [%tr] ... %{+Q}r), or\n"
          "                     the whole directive (log_format NAME escape=json '...';)\n"
          "                     or varnishncsa command line (varnishncsa -F '...': its\n"
          "                     URLs cut at 254 bytes are flagged truncated)\n"
          "  --json-key KEY     JSON lines: the URL's key, dotted for nested objects\n"
          "                     (default: request.uri, RequestPath, request_uri, uri,\n"
          "                     url, path, request)\n"
          "  --field N          any whitespace-separated log: field N (from 1) is a URL\n"
          "  --strict-format    exit with status 1 when lines do not parse\n"
          "The formats (--format NAME, or an alias in parentheses):\n",
          stdout);
    log_formats_help(stdout, 2);
    fputs("Decoding:\n"
          "  --decode-slash     also decode %2F in paths (default: kept, as a segment byte)\n"
          "  --query MODE       form (default: '+' is a space), plain, or keep (as is)\n"
          "  --referer          decode the referer too\n"
          "  --percent-u        decode %uXXXX in every format (default: w3c only)\n"
          "  --bytes            keep decoded bytes that are not UTF-8 (default: U+FFFD);\n"
          "                     C1 controls (U+0080-U+009F) are still escaped\n"
          "Output:\n",
          stdout);
    fputs("  --json             one JSON object per line: combined and common lines\n"
          "                     remote, time, method, path, query ([[name, value],\n"
          "                     ...]), status, bytes, referer, agent (null when absent);\n"
          "                     other formats (and combined lines with trailing fields)\n"
          "                     \"format\" and every field by name, times also as NAME_iso\n"
          "                     (ISO 8601), unnamed trailing fields in \"extra\"; each\n"
          "                     key once: the request's method, path, query... win,\n"
          "                     and a later field of a name already written goes in\n"
          "                     \"extra\" as \"NAME=VALUE\"; log\n"
          "                     escapes (\\\" \\xHH) undone; a line that does not parse is\n"
          "                     {\"unparsed\": LINE}, a W3C directive {\"directive\": LINE}\n"
          "                     (--field: path, query and line); a record the server\n"
          "                     cut (a 414 request line, a line that ends inside quotes,\n"
          "                     a squid entry cut at 8191 bytes) has \"truncated\": true\n"
          "                     and its fields as far as they go\n"
          "  --tsv, --csv       one row per line: the --fields, decoded; a missing\n"
          "                     field or '-' is \\N (TSV) or empty (CSV); a line that\n"
          "                     does not parse has format 'unparsed' (a W3C directive:\n"
          "                     'directive') and only its line\n"
          "  --fields LIST      TSV/CSV columns, comma-separated (default format,remote,\n"
          "                     time,method,path,query,status,bytes,referer,agent): any\n"
          "                     field name, NAME_iso, origin, protocol, line, truncated\n"
          "                     (true/false: the server cut the record) (JSON lines:\n"
          "                     remote, time, method... from the usual keys)\n"
          "  --header           TSV/CSV: the column names first\n"
          "  --csv-safe         CSV: a cell starting with = + - @, a tab or a CR (a\n"
          "                     formula to spreadsheets) gets a ' before it\n"
          "  --raw-spaces       line output: a decoded space written as a space\n"
          "                     (default \\x20, so the line splits into the same fields;\n"
          "                     w3c and --field always \\x20)\n"
          "  --stats            print counts (lines per format too, records the server\n"
          "                     cut), elapsed time and GB/s on stderr at the end\n"
          "  --progress         show a progress bar on stderr (default: when stderr is a\n"
          "                     terminal and the input size is known); --no-progress\n"
          "  --raw              line output: text that is not decoded (other fields,\n"
          "                     unparsed lines) as it is; default: controls escaped\n"
          "  --threads N        worker threads, 1..256 (default: all cores; 1: none)\n"
          "  --chunk-size N     bytes per chunk handed to a thread, 1..1G (default 256K;\n"
          "                     less than 64K is taken as 64K)\n"
          "  --max-line N       longest line decoded, 4K..256M (default 4M): a longer line\n"
          "                     is written undecoded as a line that does not parse\n"
          "                     (JSON {\"unparsed\": LINE}, TSV/CSV format 'unparsed',\n"
          "                     its CSV line cell always quoted), the same with any\n"
          "                     --threads, reported on stderr and counted in --stats\n",
          stdout);
    fputs("  --byte-range START:END  one plain file's lines that start in bytes\n"
          "                     [START, END): from offset 0 or just after the first\n"
          "                     newline at or after byte START-1, to the end of the line\n"
          "                     holding byte END-1 (read to its newline, however long);\n"
          "                     ranges cut at any offsets 0 = c0 < c1 < ... < cn = size\n"
          "                     write every line once: their outputs concatenated\n"
          "                     (without --header) are the whole file's. Read with\n"
          "                     seeks (only the range). --stats counts the range's\n"
          "                     lines, and line numbers in messages count from its\n"
          "                     first line; the format (auto) is found from its own\n"
          "                     lines (a W3C range sees only the #Fields: in it). A\n"
          "                     compressed file or a pipe is an error (exit 2)\n"
          "  --impl NAME        use this libpct implementation\n"
          "  -h, --help         show this help\n"
          "\n",
          stdout);
    fputs("Safety: decoding never lets log content forge output. Every decoded byte\n"
          "is escaped when it is a control character (\\n \\r \\t, else \\xHH; U+0080-\n"
          "U+009F as \\xc2\\xHH), a '\"' (\\\") or a '\\' (\\\\) - Apache's own escaping\n"
          "convention, whose escapes already in the log are copied as written. A\n"
          "decoded space is \\x20, so the line splits into the same fields, inside\n"
          "quotes too (--raw-spaces: a space, except in w3c and --field).\n"
          "In the query, %26 %3D %23 stay encoded so parameters keep their\n"
          "boundaries. JSON strings are JSON-escaped; TSV/CSV values have \\\\ \\t \\n\n"
          "\\r \\xHH. So one input line is always one output line (the NUL\n"
          "that ends a squid entry squid cut ends a line: the entry after it on\n"
          "the same line is a record and a line of its own).\n"
          "Lines that do not parse are passed through and counted; in them, and in\n"
          "the fields that are not decoded, control bytes are escaped (\\xHH; a tab\n"
          "stays) unless --raw. Every input's last line ends with a newline.\n"
          "\n"
          "Input: files or pipes, plain text or compressed (gzip, also multi-member,\n"
          "and zstd, detected by content). Other compressed data (xz, bzip2, lz4,\n"
          "zip) and binary data are refused with a message, never copied. An input\n"
          "that is the output file is refused, as cat does.\n"
          "\n"
          "Exit status: 0 success (unparsed and long lines are normal data; with\n"
          "--strict-format unparsed lines give 1), 2 usage\n"
          "error, or a fault: an input that cannot be read, is truncated, corrupt,\n"
          "shrinks, grows or is removed while being read (everything read before\n"
          "is written, and the other inputs are still processed), or a write error\n"
          "(a full disk, a closed pipe: SIGPIPE is ignored; the message says how\n"
          "many lines were written). SIGINT and SIGTERM stop at a line's end: the\n"
          "output ends with a whole line, exit status 130 or 143 (a second signal\n"
          "stops at once).\n",
          stdout);
}

/* A usage error (the argument escaped: log_quote_name). The command line
 * is the CLI's: it prints and exits here, the engine never does. */
static _Noreturn void logs_usage(const char *message, const char *arg)
{
    char quoted[LOG_QUOTED_NAME_MAX];
    fprintf(stderr, "pct logs: %s%s%s\nTry 'pct logs --help'.\n", message, arg ? " " : "",
            arg ? log_quote_name(quoted, arg) : "");
    exit(CLI_EXIT_TROUBLE);
}

/* 4096 as "4K", 2^30 as "1G": sizes as the options take them. */
static void format_size(char *text, size_t size, size_t v)
{
    const char *unit = "KMG";
    int u = -1;
    while (u < 2 && v >= 1024 && v % 1024 == 0) {
        v /= 1024;
        u++;
    }
    snprintf(text, size, "%zu%.*s", v, u >= 0 ? 1 : 0, u >= 0 ? unit + u : "");
}

/* A number with an optional k/M/G suffix (powers of 1024) within min..max,
 * parsed without overflow; else a usage error naming the option. */
static size_t parse_size(const char *option, const char *text, size_t min, size_t max, int suffixes)
{
    unsigned long long v = 0;
    const char *p = text;
    int ok = *p >= '0' && *p <= '9';
    for (; ok && *p >= '0' && *p <= '9'; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (max - d) / 10) { /* beyond max (and never wrapped) */
            v = (unsigned long long)max + 1;
            while (*p >= '0' && *p <= '9')
                p++;
            break;
        }
        v = v * 10 + d;
    }
    unsigned shift = 0;
    if (ok && suffixes && *p != '\0' && p[1] == '\0') {
        const char *units = "kKmMgG", *u = strchr(units, *p);
        if (u != NULL) {
            shift = 10 * (unsigned)(1 + (u - units) / 2);
            p++;
        }
    }
    ok = ok && *p == '\0';
    if (ok && v > (max >> shift))
        v = (unsigned long long)max + 1;
    else
        v <<= shift;
    if (!ok || v < min || v > max) {
        char range[128], low[32], high[32];
        format_size(low, sizeof low, min);
        format_size(high, sizeof high, max);
        snprintf(range, sizeof range, "%s must be %s..%s%s:", option, low, high,
                 suffixes ? " (suffixes k, M, G)" : "");
        logs_usage(range, text);
    }
    return (size_t)v;
}

/* A decimal uint64 at *p, moving *p past it: 0, or -1 (none, or too big). */
static int parse_offset(const char **p, uint64_t *out)
{
    uint64_t v = 0;
    const char *q = *p;
    if (*q < '0' || *q > '9')
        return -1;
    for (; *q >= '0' && *q <= '9'; q++) {
        unsigned d = (unsigned)(*q - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *p = q;
    *out = v;
    return 0;
}

/* --byte-range START:END: 0, or -1. */
static int parse_range(const char *text, uint64_t *start, uint64_t *end)
{
    const char *p = text;
    if (parse_offset(&p, start) != 0 || *p++ != ':' || parse_offset(&p, end) != 0 || *p != '\0')
        return -1;
    return *start <= *end ? 0 : -1;
}

int log_options_parse(int argc, char **argv, struct log_options *o, char **files,
                      size_t *nfiles_out)
{
    log_options_init(o);
    struct log_config *cfg = &o->cfg;
    size_t nfiles = 0;
    int seen_command = 0, options_ended = 0, help = 0, list_formats = 0;
    const char *custom = NULL, *fields = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options_ended || a[0] != '-' || a[1] == '\0') {
            if (!seen_command && strcmp(a, "logs") == 0)
                seen_command = 1;
            else
                files[nfiles++] = argv[i];
            continue;
        }
        if (strcmp(a, "--") == 0) {
            options_ended = 1;
            continue;
        }
        const char *value = NULL;
        char name[64];
        const char *eq = strchr(a, '=');
        size_t nl = eq != NULL ? (size_t)(eq - a) : strlen(a);
        if (nl >= sizeof name)
            logs_usage("unknown option", a);
        memcpy(name, a, nl);
        name[nl] = '\0';
        static const char *const valued[] = {
            "--format", "--field",      "--query",    "--threads", "--chunk-size", "--max-line",
            "--impl",   "--log-format", "--json-key", "--fields",  "--byte-range"};
        int takes = 0;
        for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
            takes |= strcmp(name, valued[k]) == 0;
        if (takes) {
            if (eq != NULL)
                value = eq + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else
                logs_usage("option needs a value:", a);
        } else if (eq != NULL) {
            logs_usage("option takes no value:", a);
        }
        if (strcmp(name, "--format") == 0) {
            int id = strcmp(value, "auto") == 0 ? LF_AUTO : log_format_by_name(value);
            if (id == -1)
                logs_usage("unknown format (see --list-formats):", value);
            cfg->format = (enum log_format_id)id;
        } else if (strcmp(name, "--log-format") == 0) {
            custom = value;
            cfg->format = LF_CUSTOM;
        } else if (strcmp(name, "--json-key") == 0) {
            cfg->json_key = value;
        } else if (strcmp(name, "--fields") == 0) {
            fields = value;
        } else if (strcmp(name, "--tsv") == 0) {
            cfg->table = 't';
        } else if (strcmp(name, "--csv") == 0) {
            cfg->table = 'c';
        } else if (strcmp(name, "--header") == 0) {
            cfg->header = 1;
        } else if (strcmp(name, "--csv-safe") == 0) {
            cfg->csv_safe = 1;
        } else if (strcmp(name, "--strict-format") == 0) {
            cfg->strict = 1;
        } else if (strcmp(name, "--raw-spaces") == 0) {
            cfg->raw_spaces = 1;
        } else if (strcmp(name, "--field") == 0) {
            cfg->field = parse_size("--field", value, 1, LOG_MAX_FIELDS, 0);
            cfg->format = LF_FIELD;
        } else if (strcmp(name, "--query") == 0) {
            if (strcmp(value, "form") == 0)
                cfg->query = Q_FORM;
            else if (strcmp(value, "plain") == 0)
                cfg->query = Q_PLAIN;
            else if (strcmp(value, "keep") == 0)
                cfg->query = Q_KEEP;
            else
                logs_usage("unknown query mode (form, plain, keep):", value);
        } else if (strcmp(name, "--threads") == 0) {
            cfg->threads = (long)parse_size("--threads", value, 1, LOG_MAX_THREADS, 0);
        } else if (strcmp(name, "--chunk-size") == 0) {
            /* Smaller chunks are raised to LOG_MIN_CHUNK: a chunk of a few
             * lines costs threads more in handing it out than in decoding
             * it (--chunk-size 1: 200 times slower). */
            cfg->chunk = parse_size("--chunk-size", value, 1, (size_t)1 << 30, 1);
            if (cfg->chunk < LOG_MIN_CHUNK)
                cfg->chunk = LOG_MIN_CHUNK;
        } else if (strcmp(name, "--max-line") == 0) {
            cfg->max_line = parse_size("--max-line", value, (size_t)4 << 10, (size_t)256 << 20, 1);
        } else if (strcmp(name, "--byte-range") == 0) {
            if (parse_range(value, &o->byte_range_start, &o->byte_range_end) != 0)
                logs_usage("--byte-range needs START:END, two byte offsets, START <= END:", value);
            o->has_byte_range = 1;
        } else if (strcmp(name, "--impl") == 0) {
            cli_use_implementation("pct logs", value);
        } else if (strcmp(name, "--decode-slash") == 0) {
            cfg->decode_slash = 1;
        } else if (strcmp(name, "--referer") == 0) {
            cfg->referer = 1;
        } else if (strcmp(name, "--json") == 0) {
            cfg->json = 1;
        } else if (strcmp(name, "--bytes") == 0) {
            cfg->bytes = 1;
        } else if (strcmp(name, "--percent-u") == 0) {
            cfg->percent_u = 1;
        } else if (strcmp(name, "--raw") == 0) {
            cfg->raw = 1;
        } else if (strcmp(name, "--stats") == 0) {
            cfg->stats = 1;
        } else if (strcmp(name, "--progress") == 0) {
            cfg->progress = 1;
        } else if (strcmp(name, "--no-progress") == 0) {
            cfg->progress = 0;
        } else if (strcmp(name, "--list-formats") == 0) {
            list_formats = 1;
        } else if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
            help = 1;
        } else {
            logs_usage("unknown option", a);
        }
    }
    *nfiles_out = nfiles;
    if (help || list_formats) {
        if (help)
            print_logs_help();
        else
            log_formats_list(stdout);
        if (fflush(stdout) != 0)
            fatal("write error", strerror(errno));
        return CLI_EXIT_OK;
    }
    /* The other checks are the session's (log_session_configure). */
    o->log_format = custom;
    o->fields = fields;
    return -1;
}
