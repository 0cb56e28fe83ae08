/* pct.c - the `pct` command-line tool: percent-encode, percent-decode,
 * normalize and validate strings, lines, NUL-terminated records or a whole
 * input, with every set and mode of libpct.
 *
 * Exit status: 0 when all input was fine, 1 when some record failed (reported
 * on stderr, passed through unchanged), 2 on a usage error, an I/O error or
 * when out of memory.
 *
 * Adding a command: write a record_fn, list it in `commands` with the options
 * it takes, and (if it needs new ones) add them to `option_specs`.
 */
#define _POSIX_C_SOURCE 200809L /* read, fstat */

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

#include "cli.h"
#include "logs.h"
#include "pct.h"

/* Bytes asked of fread at a time; also the smallest free space kept in the
 * input buffer, so big inputs are read in big blocks. */
#define READ_CHUNK ((size_t)1 << 20)
/* Below this input length encode reserves 3*len instead of counting the
 * exact length first: one pass instead of two, at a small memory cost. */
#define ENCODE_EXACT_THRESHOLD ((size_t)1 << 20)

/* Bytes of output held before a write(2). */
#define OUTPUT_BUFFER ((size_t)1 << 18)

/* --help and --version only: the records go out through `output`. */
static char stdout_buffer[(size_t)1 << 14];

/* ------------------------------------------------------------------------ */
/* Fatal errors and memory                                                  */
/* ------------------------------------------------------------------------ */

static _Noreturn void die(const char *what)
{
    cli_fatal("pct", what, NULL);
}

static _Noreturn void die_errno(const char *what)
{
    cli_fatal("pct", what, strerror(errno));
}

#if defined(__GNUC__)
#define PRINTF_FORMAT(format_index, first_arg)                                                     \
    __attribute__((format(printf, format_index, first_arg)))
#else
#define PRINTF_FORMAT(format_index, first_arg)
#endif

static _Noreturn void usage_error(const char *format, ...) PRINTF_FORMAT(1, 2);
static _Noreturn void usage_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs("pct: ", stderr);
    vfprintf(stderr, format, args);
    va_end(args);
    fputs("\nTry 'pct --help'.\n", stderr);
    exit(CLI_EXIT_TROUBLE);
}

/* A growing byte buffer (the library never allocates; the tool does). */
struct buffer {
    char *data;
    size_t capacity;
};

static void buffer_reserve(struct buffer *buffer, size_t needed)
{
    if (needed <= buffer->capacity && buffer->data != NULL)
        return;
    size_t capacity = buffer->capacity > 0 ? buffer->capacity : 4096;
    while (capacity < needed)
        capacity = capacity <= SIZE_MAX / 2 ? capacity * 2 : needed;
    char *data = realloc(buffer->data, capacity);
    if (data == NULL)
        die("out of memory");
    buffer->data = data;
    buffer->capacity = capacity;
}

/* 3 * len, or die: an output that large could not be allocated anyway. */
static size_t triple(size_t len)
{
    if (len > SIZE_MAX / 3)
        die("out of memory");
    return 3 * len;
}

/* The records' output: buffered, counted, a write error (a closed pipe, a
 * full disk) reported with how many records were written (tools/cli.h). */
static struct cli_output output;

/* len bytes that end units records. */
static void write_bytes(const char *data, size_t len, unsigned long long units)
{
    cli_output_put(&output, data, len, units);
}

/* --help, --version: catches errors that only show when the buffer is
 * flushed (ENOSPC, EIO). */
static void finish_output(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        die_errno("write error");
    if (fclose(stdout) != 0)
        die_errno("write error");
}

/* ------------------------------------------------------------------------ */
/* Commands: each turns one record into its output                          */
/* ------------------------------------------------------------------------ */

/* What the options resolve to, as the library takes it. */
struct settings {
    pct_set set;  /* encode, validate */
    pct_set keep; /* decode --keep */
    int has_keep;
    unsigned flags;
    pct_path_policy_v2 path; /* path */
    int path_report;         /* path --report */
};

/* Processes src into out (growing it as needed) and returns the library's
 * result: on PCT_OK, count bytes of out->data are the output. */
typedef pct_result record_fn(const struct settings *settings, const char *src, size_t len,
                             struct buffer *out);

static pct_result encode_record(const struct settings *settings, const char *src, size_t len,
                                struct buffer *out)
{
    size_t needed = len < ENCODE_EXACT_THRESHOLD
                        ? triple(len)
                        : pct_encode_length(src, len, &settings->set, settings->flags);
    buffer_reserve(out, needed);
    return pct_encode(src, len, out->data, &settings->set, settings->flags);
}

static pct_result decode_record(const struct settings *settings, const char *src, size_t len,
                                struct buffer *out)
{
    buffer_reserve(out, settings->flags & PCT_UTF8_REPLACE ? triple(len) : len);
    const pct_set *keep = settings->has_keep ? &settings->keep : NULL;
    return pct_decode_except(src, len, out->data, keep, settings->flags);
}

static pct_result normalize_record(const struct settings *settings, const char *src, size_t len,
                                   struct buffer *out)
{
    buffer_reserve(out, len);
    return pct_normalize(src, len, out->data, settings->flags);
}

static pct_result validate_record(const struct settings *settings, const char *src, size_t len,
                                  struct buffer *out)
{
    (void)out;
    return pct_validate(src, len, &settings->set, settings->flags);
}

static pct_result path_record(const struct settings *settings, const char *src, size_t len,
                              struct buffer *out)
{
    /* --report: the path, a tab, what normalization did ("-": nothing). */
    const size_t report_max = 1 + pct_path_report_format(~0u, NULL, 0) + 1;
    buffer_reserve(out, len + (settings->path_report ? report_max : 0));
    pct_path_report report;
    pct_result r = pct_normalize_path_v2(src, len, out->data, &settings->path, &report);
    if (r.status == PCT_OK && settings->path_report) {
        out->data[r.count++] = '\t';
        if (report.changes)
            r.count += pct_path_report_format(report.changes, out->data + r.count, report_max);
        else
            out->data[r.count++] = '-';
    }
    return r;
}

static pct_result iri_to_uri_record(const struct settings *settings, const char *src, size_t len,
                                    struct buffer *out)
{
    (void)settings;
    buffer_reserve(out, triple(len));
    return pct_iri_to_uri(src, len, out->data);
}

static pct_result uri_to_iri_record(const struct settings *settings, const char *src, size_t len,
                                    struct buffer *out)
{
    (void)settings;
    buffer_reserve(out, len);
    return pct_uri_to_iri(src, len, out->data);
}

/* Options, one bit each, so that each command can list those it takes. */
enum option_id {
    OPT_SET,
    OPT_SAFE,
    OPT_UNSAFE,
    OPT_KEEP,
    OPT_PLUS,
    OPT_STRICT,
    OPT_UTF8,
    OPT_UTF8_REPLACE,
    OPT_KEEP_ESCAPES,
    OPT_PERCENT_U,
    OPT_WHOLE,
    OPT_ZERO,
    OPT_FAIL_FAST,
    OPT_QUIET,
    OPT_IMPL,
    OPT_HELP,
    OPT_VERSION,
    OPT_POLICY,
    OPT_ENCODED_SLASH, /* the OPT_ENCODED_* in pct_path_class order */
    OPT_ENCODED_BACKSLASH,
    OPT_ENCODED_NUL,
    OPT_ENCODED_SEMICOLON,
    OPT_ENCODED_PERCENT,
    OPT_ENCODED_QUESTION,
    OPT_ENCODED_HASH,
    OPT_ENCODED_CONTROL,
    OPT_REJECT_ABOVE_ROOT,
    OPT_DOT_PARAMS,
    OPT_REJECT_DOT_PARAMS,
    OPT_REJECT_CHANGED,
    OPT_REPORT,
    OPT_MERGE_SLASHES,
    OPT_NO_MERGE_SLASHES,
    OPT_BACKSLASH,
    OPT_NO_BACKSLASH
};

#define BIT(id) (UINT64_C(1) << (id))
/* Options every command takes. */
#define COMMON_OPTIONS                                                                             \
    (BIT(OPT_WHOLE) | BIT(OPT_ZERO) | BIT(OPT_FAIL_FAST) | BIT(OPT_QUIET) | BIT(OPT_IMPL) |        \
     BIT(OPT_HELP) | BIT(OPT_VERSION))

struct command {
    const char *name;
    const char *summary;
    uint64_t options;  /* BIT(OPT_...) it takes besides COMMON_OPTIONS */
    int writes_output; /* 0: only stderr and the exit status tell */
    record_fn *process;
};

static const struct command commands[] = {
    {"encode", "percent-encode the bytes in the set",
     BIT(OPT_SET) | BIT(OPT_SAFE) | BIT(OPT_UNSAFE) | BIT(OPT_PLUS) | BIT(OPT_KEEP_ESCAPES) |
         BIT(OPT_UTF8),
     1, encode_record},
    {"decode", "replace every %HH by its byte",
     BIT(OPT_KEEP) | BIT(OPT_PLUS) | BIT(OPT_STRICT) | BIT(OPT_UTF8) | BIT(OPT_UTF8_REPLACE) |
         BIT(OPT_PERCENT_U),
     1, decode_record},
    {"normalize", "RFC 3986 normalization: upper-case hex, decode unreserved bytes",
     BIT(OPT_STRICT), 1, normalize_record},
    /* Parses its own options and reads whole files: see tools/logs.c. */
    {"logs", PCT_LOGS_SUMMARY, 0, 1, NULL},
    {"validate", "check that input is correctly encoded for the set (no output)",
     BIT(OPT_SET) | BIT(OPT_SAFE) | BIT(OPT_UNSAFE) | BIT(OPT_PLUS) | BIT(OPT_STRICT) |
         BIT(OPT_UTF8) | BIT(OPT_PERCENT_U),
     0, validate_record},
    {"path", "normalize a request path for a proxy (dot segments, escapes by policy)",
     BIT(OPT_POLICY) | BIT(OPT_ENCODED_SLASH) | BIT(OPT_ENCODED_BACKSLASH) | BIT(OPT_ENCODED_NUL) |
         BIT(OPT_ENCODED_SEMICOLON) | BIT(OPT_ENCODED_PERCENT) | BIT(OPT_ENCODED_QUESTION) |
         BIT(OPT_ENCODED_HASH) | BIT(OPT_ENCODED_CONTROL) | BIT(OPT_REJECT_ABOVE_ROOT) |
         BIT(OPT_DOT_PARAMS) | BIT(OPT_REJECT_DOT_PARAMS) | BIT(OPT_REJECT_CHANGED) |
         BIT(OPT_REPORT) | BIT(OPT_MERGE_SLASHES) | BIT(OPT_NO_MERGE_SLASHES) | BIT(OPT_BACKSLASH) |
         BIT(OPT_NO_BACKSLASH) | BIT(OPT_STRICT) | BIT(OPT_UTF8),
     1, path_record},
    {"iri-to-uri", "RFC 3987 3.1: percent-encode every non-ASCII code point (UTF-8 input)", 0, 1,
     iri_to_uri_record},
    {"uri-to-iri", "RFC 3987 3.2: decode escapes of UTF-8 characters allowed in an IRI", 0, 1,
     uri_to_iri_record},
};

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

static const struct command *find_command(const char *name)
{
    for (size_t i = 0; i < COUNT_OF(commands); i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* "encode, decode, ...", for messages. */
static const char *command_names(void)
{
    static char names[256];
    size_t used = 0;
    for (size_t i = 0; i < COUNT_OF(commands) && used < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i > 0 ? ", " : "",
                                 commands[i].name);
    return names;
}

/* ------------------------------------------------------------------------ */
/* Options                                                                  */
/* ------------------------------------------------------------------------ */

struct option_spec {
    enum option_id id;
    const char *long_name;
    char short_name;        /* 0: none */
    const char *value_name; /* NULL: takes no value */
    unsigned pct_flag;      /* the library flag it sets, or 0 */
    const char *help;
};

static const struct option_spec option_specs[] = {
    {OPT_SET, "set", 0, "NAME", 0, "encode set (default: component), see SETS"},
    {OPT_SAFE, "safe", 0, "CHARS", 0, "remove these bytes from the set"},
    {OPT_UNSAFE, "unsafe", 0, "CHARS", 0, "add these bytes to the set"},
    {OPT_KEEP, "keep", 0, "CHARS", 0, "escapes of these bytes stay as written"},
    {OPT_PLUS, "plus", 0, NULL, PCT_PLUS, "form mode: space <-> '+'"},
    {OPT_STRICT, "strict", 0, NULL, PCT_STRICT, "a '%' not followed by two hex digits is an error"},
    {OPT_UTF8, "utf8", 0, NULL, PCT_UTF8, "require UTF-8 (encode: input; others: output)"},
    {OPT_UTF8_REPLACE, "utf8-replace", 0, NULL, PCT_UTF8_REPLACE,
     "replace ill-formed UTF-8 in the output by U+FFFD"},
    {OPT_KEEP_ESCAPES, "keep-escapes", 0, NULL, PCT_KEEP_ESCAPES,
     "copy existing %HH escapes (no double encoding)"},
    {OPT_PERCENT_U, "percent-u", 0, NULL, PCT_PERCENT_U, "also decode %uXXXX (UTF-16 units)"},
    {OPT_POLICY, "policy", 0, "NAME", 0,
     "path preset: default, nginx, envoy, apache, traefik, strict"},
    {OPT_ENCODED_SLASH, "encoded-slash", 0, "ACTION", 0, "%2F: keep, decode or reject"},
    {OPT_ENCODED_BACKSLASH, "encoded-backslash", 0, "ACTION", 0, "%5C: keep, decode or reject"},
    {OPT_ENCODED_NUL, "encoded-nul", 0, "ACTION", 0, "%00: keep or reject"},
    {OPT_ENCODED_SEMICOLON, "encoded-semicolon", 0, "ACTION", 0, "%3B: keep, decode or reject"},
    {OPT_ENCODED_PERCENT, "encoded-percent", 0, "ACTION", 0, "%25: keep, decode or reject"},
    {OPT_ENCODED_QUESTION, "encoded-question", 0, "ACTION", 0, "%3F: keep or reject"},
    {OPT_ENCODED_HASH, "encoded-hash", 0, "ACTION", 0, "%23: keep or reject"},
    {OPT_ENCODED_CONTROL, "encoded-control", 0, "ACTION", 0,
     "%00-%1F, %7F: keep or reject (--encoded-nul wins for %00)"},
    {OPT_REJECT_ABOVE_ROOT, "reject-above-root", 0, NULL, 0, "'..' above the root is an error"},
    {OPT_DOT_PARAMS, "dot-params", 0, NULL, 0, "'..;x' is the dot segment '..'"},
    {OPT_REJECT_DOT_PARAMS, "reject-dot-params", 0, NULL, 0, "'..;x' is an error"},
    {OPT_REJECT_CHANGED, "reject-changed", 0, NULL, 0,
     "a path that normalization changes is an error"},
    {OPT_REPORT, "report", 0, NULL, 0, "append a tab and what normalization did"},
    {OPT_MERGE_SLASHES, "merge-slashes", 0, NULL, 0, "repeated separators count as one"},
    {OPT_NO_MERGE_SLASHES, "no-merge-slashes", 0, NULL, 0, "keep empty path segments"},
    {OPT_BACKSLASH, "backslash", 0, NULL, 0, "'\\' is a separator, written '/'"},
    {OPT_NO_BACKSLASH, "no-backslash", 0, NULL, 0, "'\\' is an ordinary byte"},
    {OPT_WHOLE, "whole", 0, NULL, 0, "stdin is one input; output exactly the result"},
    {OPT_ZERO, "zero-terminated", 'z', NULL, 0, "stdin records end in NUL (kept), not newline"},
    {OPT_FAIL_FAST, "fail-fast", 0, NULL, 0, "stop at the first failing record (not output)"},
    {OPT_QUIET, "quiet", 'q', NULL, 0, "do not report failures on stderr"},
    {OPT_IMPL, "impl", 0, "NAME", 0, "use this implementation (see --version)"},
    {OPT_HELP, "help", 'h', NULL, 0, "show this help and exit"},
    {OPT_VERSION, "version", 0, NULL, 0, "show the version and implementation and exit"},
};

static const char *const set_names[] = {
    "c0-control", "fragment", "query",   "special-query", "path",          "userinfo",
    "component",  "form",     "rfc3986", "uri",           "uri-component",
};

/* A --safe or --unsafe, applied in command-line order once the set is known. */
struct set_edit {
    int add;
    const char *chars;
};

struct invocation {
    const struct command *command;
    uint64_t used; /* BIT(OPT_...) given */
    unsigned flags;
    const char *set_name;
    struct set_edit *set_edits;
    size_t set_edit_count;
    pct_set keep;
    const char *impl;
    const char *policy;
    const char *path_actions[PCT_PATH_CLASSES]; /* --encoded-*, by class */
    unsigned path_on, path_off;                 /* PCT_PATH_* options, the last word wins */
    char **strings;
    size_t string_count;
};

static const struct option_spec *find_long_option(const char *name, size_t name_len)
{
    for (size_t i = 0; i < COUNT_OF(option_specs); i++) {
        const char *candidate = option_specs[i].long_name;
        if (strlen(candidate) == name_len && memcmp(candidate, name, name_len) == 0)
            return &option_specs[i];
    }
    return NULL;
}

static const struct option_spec *find_short_option(char name)
{
    for (size_t i = 0; i < COUNT_OF(option_specs); i++)
        if (option_specs[i].short_name == name)
            return &option_specs[i];
    return NULL;
}

static void record_option(struct invocation *inv, const struct option_spec *spec, const char *value)
{
    inv->used |= BIT(spec->id);
    inv->flags |= spec->pct_flag;
    switch (spec->id) {
    case OPT_SET:
        inv->set_name = value;
        break;
    case OPT_SAFE:
    case OPT_UNSAFE:
        inv->set_edits[inv->set_edit_count].add = spec->id == OPT_UNSAFE;
        inv->set_edits[inv->set_edit_count++].chars = value;
        break;
    case OPT_KEEP:
        pct_set_add_chars(&inv->keep, value);
        break;
    case OPT_IMPL:
        inv->impl = value;
        break;
    case OPT_POLICY:
        inv->policy = value;
        break;
    case OPT_ENCODED_SLASH:
    case OPT_ENCODED_BACKSLASH:
    case OPT_ENCODED_NUL:
    case OPT_ENCODED_SEMICOLON:
    case OPT_ENCODED_PERCENT:
    case OPT_ENCODED_QUESTION:
    case OPT_ENCODED_HASH:
    case OPT_ENCODED_CONTROL:
        inv->path_actions[spec->id - OPT_ENCODED_SLASH] = value;
        break;
    case OPT_REJECT_ABOVE_ROOT:
    case OPT_DOT_PARAMS:
    case OPT_REJECT_DOT_PARAMS:
    case OPT_REJECT_CHANGED:
        inv->path_on |= spec->id == OPT_REJECT_ABOVE_ROOT   ? PCT_PATH_REJECT_ABOVE_ROOT
                        : spec->id == OPT_DOT_PARAMS        ? PCT_PATH_DOT_PARAMS
                        : spec->id == OPT_REJECT_DOT_PARAMS ? PCT_PATH_REJECT_DOT_PARAMS
                                                            : PCT_PATH_REJECT_CHANGED;
        break;
    case OPT_MERGE_SLASHES:
    case OPT_BACKSLASH:
    case OPT_NO_MERGE_SLASHES:
    case OPT_NO_BACKSLASH: {
        const unsigned option = spec->id == OPT_MERGE_SLASHES || spec->id == OPT_NO_MERGE_SLASHES
                                    ? PCT_PATH_MERGE_SLASHES
                                    : PCT_PATH_BACKSLASH;
        const int on = spec->id == OPT_MERGE_SLASHES || spec->id == OPT_BACKSLASH;
        inv->path_on = on ? inv->path_on | option : inv->path_on & ~option;
        inv->path_off = on ? inv->path_off & ~option : inv->path_off | option;
        break;
    }
    default:
        break;
    }
}

/* "--name", "--name=value" or "--name value"; advances *index past a
 * separate value. */
static void parse_long_option(struct invocation *inv, int argc, char **argv, int *index)
{
    const char *name = argv[*index] + 2;
    const char *equals = strchr(name, '=');
    size_t name_len = equals != NULL ? (size_t)(equals - name) : strlen(name);
    const struct option_spec *spec = find_long_option(name, name_len);
    if (spec == NULL)
        usage_error("unknown option '%s'", argv[*index]);
    const char *value = NULL;
    if (spec->value_name == NULL) {
        if (equals != NULL)
            usage_error("option '%s' takes no value", argv[*index]);
    } else if (equals != NULL) {
        value = equals + 1;
    } else if (*index + 1 < argc) {
        value = argv[++*index];
    } else {
        usage_error("option '%s' needs a value", argv[*index]);
    }
    record_option(inv, spec, value);
}

/* "-q", "-zq": short options take no values. */
static void parse_short_options(struct invocation *inv, const char *arg)
{
    for (const char *p = arg + 1; *p != '\0'; p++) {
        const struct option_spec *spec = find_short_option(*p);
        if (spec == NULL)
            usage_error("unknown option '-%c'", *p);
        record_option(inv, spec, NULL);
    }
}

/* Options may appear anywhere; the first other argument is the command, the
 * rest are STRINGs. After "--" everything is a STRING (or the command). */
static void parse_arguments(struct invocation *inv, int argc, char **argv)
{
    int options_ended = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_ended && arg[0] == '-' && arg[1] != '\0') {
            if (strcmp(arg, "--") == 0)
                options_ended = 1;
            else if (arg[1] == '-')
                parse_long_option(inv, argc, argv, &i);
            else
                parse_short_options(inv, arg);
        } else if (inv->command == NULL) {
            inv->command = find_command(arg);
            if (inv->command == NULL)
                usage_error("unknown command '%s' (commands: %s)", arg, command_names());
        } else {
            inv->strings[inv->string_count++] = argv[i];
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Help and version                                                         */
/* ------------------------------------------------------------------------ */

/* " [encode, validate]": the commands that take the option ("" if all do). */
static void format_option_commands(enum option_id id, char *text, size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    if (COMMON_OPTIONS & BIT(id))
        return;
    for (size_t i = 0; i < COUNT_OF(commands); i++) {
        if (commands[i].options & BIT(id) && used < size)
            used += (size_t)snprintf(text + used, size - used, "%s%s", used ? ", " : " [",
                                     commands[i].name);
    }
    if (used > 0 && used < size)
        snprintf(text + used, size - used, "]");
}

/* "  -z, --zero-terminated      help [commands]", wrapped before the
 * commands when the line would be wider than 79 columns. */
static void print_option_help(const struct option_spec *spec, int with_commands)
{
    char name[48];
    int used = spec->short_name
                   ? snprintf(name, sizeof name, "-%c, --%s", spec->short_name, spec->long_name)
                   : snprintf(name, sizeof name, "    --%s", spec->long_name);
    if (spec->value_name != NULL && used > 0 && (size_t)used < sizeof name)
        snprintf(name + used, sizeof name - (size_t)used, " %s", spec->value_name);
    char command_list[160];
    command_list[0] = '\0';
    if (with_commands)
        format_option_commands(spec->id, command_list, sizeof command_list);
    int width = printf("  %-26s %s", name, spec->help);
    if (command_list[0] != '\0' && width + (int)strlen(command_list) > 79)
        printf("\n%28s", "");
    printf("%s\n", command_list);
}

static int takes_option(const struct command *command, enum option_id id)
{
    return (COMMON_OPTIONS | command->options) & BIT(id);
}

/* Without a command: every command and option. With one (`pct decode
 * --help`): that command's usage and only the options it takes. */
static void print_help(const struct command *only)
{
    if (only != NULL) {
        printf("Usage: pct %s [OPTION...] [STRING...]\n"
               "pct %s: %s.\n"
               "Each STRING is one record; without STRING, each line of standard input is one\n"
               "(its terminator, \"\\n\" or \"\\r\\n\", is kept as is and not processed).\n"
               "\nOptions:\n",
               only->name, only->name, only->summary);
    } else {
        fputs("Usage: pct COMMAND [OPTION...] [STRING...]\n"
              "Percent-encode or percent-decode (URL encoding) each STRING, printing each\n"
              "result on its own line; without STRING, each line of standard input (the\n"
              "line terminator, \"\\n\" or \"\\r\\n\", is kept as is and not processed).\n"
              "Options may come anywhere; \"--\" ends them. 'pct COMMAND --help' shows the\n"
              "options of one command.\n"
              "\nCommands:\n",
              stdout);
        for (size_t i = 0; i < COUNT_OF(commands); i++)
            printf("  %-10s %s\n", commands[i].name, commands[i].summary);
        fputs("\nOptions (in brackets: the only commands that take it):\n", stdout);
    }
    for (size_t i = 0; i < COUNT_OF(option_specs); i++)
        if (only == NULL || takes_option(only, option_specs[i].id))
            print_option_help(&option_specs[i], only == NULL);
    if (only == NULL || takes_option(only, OPT_SET)) {
        fputs("\nSets (--set):", stdout);
        for (size_t i = 0; i < COUNT_OF(set_names); i++)
            printf("%s%s", i % 6 == 0 ? "\n  " : " ", set_names[i]);
        fputs("\n  e.g. Python quote(s, safe='/') is: pct encode --set rfc3986 --safe /\n", stdout);
    }
    fputs("\nA record that fails is reported on stderr as\n"
          "  pct: line N, byte M: reason\n"
          "(\"argument N\" for STRINGs, \"record N\" with -z, \"input\" with --whole; N counts\n"
          "from 1, M from 0 within the record) and passed through unchanged.\n"
          "\nExit status:\n"
          "  0  all input was fine\n"
          "  1  some record failed\n"
          "  2  usage error, read or write error (a full disk, a closed pipe: the\n"
          "     message says how many records were written), or out of memory\n",
          stdout);
}

static void print_version(void)
{
    printf("pct %s\nimplementation: %s (available: ", pct_version(), pct_implementation());
    cli_print_implementations(stdout);
    printf(")\ncompressed input (pct logs): %s\n", pct_logs_compression());
}

/* ------------------------------------------------------------------------ */
/* Checking the invocation before any input is read                         */
/* ------------------------------------------------------------------------ */

static void check_options_apply(const struct invocation *inv)
{
    uint64_t accepted = inv->command->options | COMMON_OPTIONS;
    for (size_t i = 0; i < COUNT_OF(option_specs); i++) {
        if ((inv->used & BIT(option_specs[i].id)) && !(accepted & BIT(option_specs[i].id)))
            usage_error("%s does not take --%s", inv->command->name, option_specs[i].long_name);
    }
    if ((inv->used & BIT(OPT_WHOLE)) && (inv->used & BIT(OPT_ZERO)))
        usage_error("--whole cannot be combined with -z");
    if (inv->string_count > 0 && (inv->used & (BIT(OPT_WHOLE) | BIT(OPT_ZERO))))
        usage_error("--whole and -z apply only to standard input, not to STRING arguments");
}

static pct_path_action path_action(const char *option, const char *value)
{
    static const char *const names[] = {"keep", "decode", "reject"};
    for (size_t i = 0; i < COUNT_OF(names); i++)
        if (strcmp(value, names[i]) == 0)
            return (pct_path_action)i;
    usage_error("--%s: unknown action '%s' (actions: keep, decode, reject)", option, value);
}

/* `path`: the preset, then the options that change it. */
static void build_path_policy(const struct invocation *inv, pct_path_policy_v2 *policy)
{
    if (pct_path_policy_v2_init(policy, inv->policy) != PCT_OK)
        usage_error(
            "unknown policy '%s' (policies: default, nginx, envoy, apache, traefik, strict)",
            inv->policy);
    static const char *const options[PCT_PATH_CLASSES] = {
        "encoded-slash",   "encoded-backslash", "encoded-nul",  "encoded-semicolon",
        "encoded-percent", "encoded-question",  "encoded-hash", "encoded-control"};
    /* --encoded-control covers %00 too (as in v1), unless --encoded-nul
     * says otherwise: the controls first. */
    static const pct_path_class order[PCT_PATH_CLASSES] = {
        PCT_PATH_CLASS_CONTROL,   PCT_PATH_CLASS_NUL,       PCT_PATH_CLASS_SLASH,
        PCT_PATH_CLASS_BACKSLASH, PCT_PATH_CLASS_SEMICOLON, PCT_PATH_CLASS_PERCENT,
        PCT_PATH_CLASS_QUESTION,  PCT_PATH_CLASS_HASH};
    for (size_t k = 0; k < PCT_PATH_CLASSES; k++) {
        const pct_path_class c = order[k];
        if (inv->path_actions[c] == NULL)
            continue;
        const pct_path_action action = path_action(options[c], inv->path_actions[c]);
        if (c == PCT_PATH_CLASS_CONTROL)
            pct_path_policy_v2_set(policy, PCT_PATH_CLASS_NUL, action);
        if (pct_path_policy_v2_set(policy, c, action) != PCT_OK)
            usage_error("--%s: a decoded byte would %s; use keep or reject", options[c],
                        c == PCT_PATH_CLASS_QUESTION || c == PCT_PATH_CLASS_HASH
                            ? "end the path"
                            : "reach the next hop raw (request splitting)");
    }
    policy->options = (policy->options | inv->path_on) & ~inv->path_off;
    if (inv->flags & PCT_STRICT)
        policy->options |= PCT_PATH_STRICT;
    if (inv->flags & PCT_UTF8)
        policy->options |= PCT_PATH_UTF8;
}

static void build_settings(const struct invocation *inv, struct settings *settings)
{
    const char *set_name = inv->set_name != NULL ? inv->set_name : "component";
    const pct_set *set = pct_set_by_name(set_name);
    if (set == NULL) {
        fprintf(stderr, "pct: unknown set '%s' (sets:", set_name);
        for (size_t i = 0; i < COUNT_OF(set_names); i++)
            fprintf(stderr, " %s", set_names[i]);
        fputs(")\n", stderr);
        exit(CLI_EXIT_TROUBLE);
    }
    settings->set = *set;
    for (size_t i = 0; i < inv->set_edit_count; i++) {
        if (inv->set_edits[i].add)
            pct_set_add_chars(&settings->set, inv->set_edits[i].chars);
        else
            pct_set_remove_chars(&settings->set, inv->set_edits[i].chars);
    }
    settings->keep = inv->keep;
    settings->has_keep = (inv->used & BIT(OPT_KEEP)) != 0;
    settings->flags = inv->flags;
    build_path_policy(inv, &settings->path);
    settings->path_report = (inv->used & BIT(OPT_REPORT)) != 0;
}

/* The library rejects contradictory flags with PCT_INVALID_ARGUMENT whatever
 * the input: try an empty one so the user hears of it before any input. */
static void check_library_accepts(const struct command *command, const struct settings *settings)
{
    struct buffer scratch = {NULL, 0};
    buffer_reserve(&scratch, 1);
    pct_result result = command->process(settings, "", 0, &scratch);
    free(scratch.data);
    if (result.status != PCT_INVALID_ARGUMENT)
        return;
    if ((settings->flags & PCT_UTF8) && (settings->flags & PCT_UTF8_REPLACE))
        usage_error("%s: --utf8 and --utf8-replace cannot be combined", command->name);
    usage_error("%s: this combination of options is not supported", command->name);
}

/* ------------------------------------------------------------------------ */
/* Processing records                                                       */
/* ------------------------------------------------------------------------ */

struct run {
    const struct command *command;
    const struct settings *settings;
    const char *unit; /* "line", "record", "argument", or "input" (unnumbered) */
    int quiet;
    int fail_fast;
    int failed;
    int stop;
    struct buffer out;
};

static void report_failure(const struct run *run, size_t number, pct_result result)
{
    if (run->quiet)
        return;
    if (number == 0)
        fprintf(stderr, "pct: %s, byte %zu: %s\n", run->unit, result.count,
                pct_status_string(result.status));
    else
        fprintf(stderr, "pct: %s %zu, byte %zu: %s\n", run->unit, number, result.count,
                pct_status_string(result.status));
}

/* Processes one record and writes its result (or, on failure, the record
 * itself, so nothing is lost) followed by its terminator. number 0: the
 * whole input. */
static void handle_record(struct run *run, size_t number, const char *src, size_t len,
                          const char *terminator, size_t terminator_len)
{
    pct_result result = run->command->process(run->settings, src, len, &run->out);
    const char *output = run->out.data;
    size_t output_len = result.count;
    if (result.status != PCT_OK) {
        run->failed = 1;
        report_failure(run, number, result);
        if (run->fail_fast) {
            run->stop = 1;
            return;
        }
        output = src;
        output_len = len;
    }
    if (run->command->writes_output) {
        write_bytes(output, output_len, 0);
        write_bytes(terminator, terminator_len, 1);
    }
}

static void process_strings(struct run *run, char **strings, size_t count)
{
    run->unit = "argument";
    for (size_t i = 0; i < count && !run->stop; i++)
        handle_record(run, i + 1, strings[i], strlen(strings[i]), "\n", 1);
}

/* Reads more of fd into buffer after its first *end bytes, growing it so
 * that at least READ_CHUNK bytes are free. Returns 0 at end of input.
 * read(2), not fread: it returns what a pipe has now, so `tail -f log | pct
 * decode` shows each line as it comes; and before a read that may wait, the
 * output so far is flushed for the same reason. */
static int read_more(int fd, struct buffer *buffer, size_t *end)
{
    static int regular = -1;
    if (regular < 0) {
        struct stat st;
        regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    }
    if (!regular)
        cli_output_flush(&output);
    if (buffer->capacity - *end < READ_CHUNK)
        buffer_reserve(buffer, *end + READ_CHUNK);
    for (;;) {
        ssize_t got = read(fd, buffer->data + *end, buffer->capacity - *end);
        if (got > 0) {
            *end += (size_t)got;
            return 1;
        }
        if (got == 0)
            return 0;
        if (errno != EINTR)
            die_errno("read error");
    }
}

/* Records end in delimiter, which is kept; with strip_cr a "\r" before it is
 * part of the terminator too. A last record without one is processed and
 * output without one. */
static void process_delimited(struct run *run, int in, char delimiter, int strip_cr)
{
    struct buffer input = {NULL, 0};
    size_t start = 0;   /* first byte of the pending record */
    size_t scanned = 0; /* [start, scanned) holds no delimiter */
    size_t end = 0;     /* bytes read */
    size_t number = 0;
    int more = 1;
    buffer_reserve(&input, 2 * READ_CHUNK);
    while (!run->stop) {
        char *found = memchr(input.data + scanned, delimiter, end - scanned);
        if (found == NULL) {
            if (!more)
                break;
            /* Keep only the pending partial record, at the front. */
            if (start > 0) {
                memmove(input.data, input.data + start, end - start);
                end -= start;
                start = 0;
            }
            scanned = end;
            more = read_more(in, &input, &end);
            continue;
        }
        size_t record_end = (size_t)(found - input.data);
        size_t content_end = record_end;
        if (strip_cr && content_end > start && input.data[content_end - 1] == '\r')
            content_end--;
        handle_record(run, ++number, input.data + start, content_end - start,
                      input.data + content_end, record_end + 1 - content_end);
        start = scanned = record_end + 1;
    }
    if (!run->stop && end > start)
        handle_record(run, ++number, input.data + start, end - start, "", 0);
    free(input.data);
}

static void process_whole(struct run *run, int in)
{
    struct buffer input = {NULL, 0};
    size_t end = 0;
    buffer_reserve(&input, 2 * READ_CHUNK);
    while (read_more(in, &input, &end))
        ;
    handle_record(run, 0, input.data, end, "", 0);
    free(input.data);
}

static void process_input(struct run *run, const struct invocation *inv)
{
    struct stat in;
    if (inv->string_count == 0 && fstat(STDIN_FILENO, &in) == 0 && cli_is_output_file(&in))
        die("standard input: input file is output file");
    if (inv->string_count == 0)
        cli_widen_pipe(STDIN_FILENO);
#ifdef _WIN32
    _setmode(_fileno(stdin), _O_BINARY);
    _setmode(_fileno(stdout), _O_BINARY);
#endif
    if (inv->string_count > 0) {
        cli_output_start(&output, "pct", "argument", '\n', STDOUT_FILENO, OUTPUT_BUFFER);
        process_strings(run, inv->strings, inv->string_count);
    } else if (inv->used & BIT(OPT_WHOLE)) {
        run->unit = "input";
        cli_output_start(&output, "pct", "input", '\0', STDOUT_FILENO, OUTPUT_BUFFER);
        process_whole(run, STDIN_FILENO);
    } else if (inv->used & BIT(OPT_ZERO)) {
        run->unit = "record";
        cli_output_start(&output, "pct", "record", '\0', STDOUT_FILENO, OUTPUT_BUFFER);
        process_delimited(run, STDIN_FILENO, '\0', 0);
    } else {
        run->unit = "line";
        cli_output_start(&output, "pct", "line", '\n', STDOUT_FILENO, OUTPUT_BUFFER);
        process_delimited(run, STDIN_FILENO, '\n', 1);
    }
    cli_output_end(&output);
}

/* 1 if the command (the first argument that is not an option or an
 * option's value) is `logs`, which parses its own command line. */
static int is_logs_command(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0)
            return i + 1 < argc && strcmp(argv[i + 1], "logs") == 0;
        if (arg[0] != '-' || arg[1] == '\0')
            return strcmp(arg, "logs") == 0;
        if (arg[1] == '-' && strchr(arg, '=') == NULL) {
            const struct option_spec *spec = find_long_option(arg + 2, strlen(arg + 2));
            if (spec != NULL && spec->value_name != NULL)
                i++;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (is_logs_command(argc, argv))
        return pct_logs_main(argc, argv);
    /* Fully buffered, large: this tool is a filter for big files too. */
    setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);

    struct invocation inv;
    memset(&inv, 0, sizeof inv);
    pct_set_clear(&inv.keep);
    inv.set_edits = malloc(sizeof *inv.set_edits * (size_t)argc);
    inv.strings = malloc(sizeof *inv.strings * (size_t)argc);
    if (inv.set_edits == NULL || inv.strings == NULL)
        die("out of memory");
    parse_arguments(&inv, argc, argv);

    if (inv.impl != NULL)
        cli_use_implementation("pct", inv.impl);
    if (inv.used & (BIT(OPT_HELP) | BIT(OPT_VERSION))) {
        if (inv.used & BIT(OPT_HELP))
            print_help(inv.command);
        else
            print_version();
        finish_output();
        free(inv.set_edits);
        free(inv.strings);
        return CLI_EXIT_OK;
    }
    if (inv.command == NULL)
        usage_error("no command given (commands: %s)", command_names());
    check_options_apply(&inv);

    struct settings settings;
    build_settings(&inv, &settings);
    check_library_accepts(inv.command, &settings);

    struct run run = {.command = inv.command,
                      .settings = &settings,
                      .quiet = (inv.used & BIT(OPT_QUIET)) != 0,
                      .fail_fast = (inv.used & BIT(OPT_FAIL_FAST)) != 0};
    process_input(&run, &inv);
    free(run.out.data);
    free(inv.set_edits);
    free(inv.strings);
    return run.failed ? CLI_EXIT_SOME_FAILED : CLI_EXIT_OK;
}
