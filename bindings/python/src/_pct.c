/* _pct.c - the C core of the pct Python package: libpct's operations, the
 * batch API, and drop-in replacements for urllib.parse's quoting functions.
 *
 * The drop-ins take the common cases (exact str and bytes, str encoding and
 * errors names) in C; every other call (other types, wrong arguments, a
 * keyword urllib does not know) is handed to urllib.parse itself with the
 * same arguments, so results and exceptions are urllib's by construction.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "pct.h"
#include "logs_records.h"
#include "utf8_str.h"

/* Inputs at least this long are processed with the GIL released. */
#define RELEASE_GIL_BYTES 16384
/* Temporary buffers up to this size live on the stack. */
#define STACK_BYTES 2048

static PyObject *Error;        /* pct.Error, a ValueError */
static PyObject *urllib_parse; /* imported on first fallback */

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

/* The function `name` of urllib.parse, called with the caller's arguments. */
static PyObject *urllib_call(const char *name, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames)
{
    if (urllib_parse == NULL) {
        urllib_parse = PyImport_ImportModule("urllib.parse");
        if (urllib_parse == NULL)
            return NULL;
    }
    PyObject *fn = PyObject_GetAttrString(urllib_parse, name);
    if (fn == NULL)
        return NULL;
    PyObject *r = PyObject_Vectorcall(fn, args, (size_t)nargs, kwnames);
    Py_DECREF(fn);
    return r;
}

/* Sorts fastcall arguments into slots by name. Returns 0, or -1 when the
 * call is not well-formed (too many or too few, an unknown or repeated
 * keyword): no exception is set then, so that a drop-in can hand the call
 * to urllib; library functions call arg_error. */
static int parse_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      const char *const *names, int nnames, int nrequired, PyObject **slots)
{
    for (int i = 0; i < nnames; i++)
        slots[i] = NULL;
    if (nargs > nnames)
        return -1;
    for (Py_ssize_t i = 0; i < nargs; i++)
        slots[i] = args[i];
    if (kwnames != NULL) {
        Py_ssize_t nk = PyTuple_GET_SIZE(kwnames);
        for (Py_ssize_t k = 0; k < nk; k++) {
            PyObject *key = PyTuple_GET_ITEM(kwnames, k);
            int found = 0;
            for (int i = 0; i < nnames; i++) {
                if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) {
                    if (slots[i] != NULL)
                        return -1;
                    slots[i] = args[nargs + k];
                    found = 1;
                    break;
                }
            }
            if (!found)
                return -1;
        }
    }
    for (int i = 0; i < nrequired; i++)
        if (slots[i] == NULL)
            return -1;
    return 0;
}

static PyObject *arg_error(const char *fname)
{
    PyErr_Format(PyExc_TypeError, "%s(): wrong arguments (see help(pct.%s))", fname, fname);
    return NULL;
}

/* A pct.Error for a failed call (index >= 0 for a batch item), with the
 * message "<status> at offset N[ of item I][: detail]", or NULL. */
static PyObject *error_new(pct_result r, Py_ssize_t index, const char *detail)
{
    PyObject *msg;
    if (index >= 0)
        msg = PyUnicode_FromFormat("%s at offset %zu of item %zd%s%s", pct_status_string(r.status),
                                   r.count, index, detail ? ": " : "", detail ? detail : "");
    else
        msg = PyUnicode_FromFormat("%s at offset %zu%s%s", pct_status_string(r.status), r.count,
                                   detail ? ": " : "", detail ? detail : "");
    if (msg == NULL)
        return NULL;
    PyObject *exc = PyObject_CallOneArg(Error, msg);
    Py_DECREF(msg);
    if (exc == NULL)
        return NULL;
    PyObject *status = PyLong_FromLong((long)r.status);
    PyObject *offset = PyLong_FromSize_t(r.count);
    PyObject *idx = index >= 0 ? PyLong_FromSsize_t(index) : Py_NewRef(Py_None);
    if (!(status && offset && idx && PyObject_SetAttrString(exc, "status", status) == 0 &&
          PyObject_SetAttrString(exc, "offset", offset) == 0 &&
          PyObject_SetAttrString(exc, "index", idx) == 0))
        Py_CLEAR(exc);
    Py_XDECREF(status);
    Py_XDECREF(offset);
    Py_XDECREF(idx);
    return exc;
}

static PyObject *raise_error_detail(pct_result r, Py_ssize_t index, const char *detail)
{
    PyObject *exc = error_new(r, index, detail);
    if (exc != NULL) {
        PyErr_SetObject(Error, exc);
        Py_DECREF(exc);
    }
    return NULL;
}

/* Raises pct.Error for a failed call; index >= 0 for a batch item. */
static PyObject *raise_error(pct_result r, Py_ssize_t index)
{
    return raise_error_detail(r, index, NULL);
}

/* Encoding a str: the result is a str only if it is UTF-8, so a set that
 * escapes some bytes of a character but not the others (make_set(None,
 * add=b"\xa9") and "\u00e9", C3 A9: "\xc3%A9") fails. Only a set that holds
 * some bytes 0x80-0xFF and not all of them can do that. */
static int set_splits_characters(const pct_set *set)
{
    /* bytes 0x80-0xFF: bits[16..31] */
    unsigned any = 0, every = 0xFF;
    for (int i = 16; i < 32; i++) {
        any |= set->bits[i];
        every &= set->bits[i];
    }
    return any != 0 && every != 0xFF;
}

/* The offset of the first character of the UTF-8 text p[0..len) that set
 * escapes only in part, or -1. */
static Py_ssize_t split_character(const char *p, size_t len, const pct_set *set)
{
    const unsigned char *u = (const unsigned char *)p;
    size_t i = 0;
    while (i < len) {
        size_t n = u[i] < 0x80 ? 1 : u[i] < 0xE0 ? 2 : u[i] < 0xF0 ? 3 : 4;
        if (n > len - i)
            n = len - i; /* not reached for well-formed UTF-8 */
        int in = 0;
        for (size_t k = 0; k < n; k++)
            in += (set->bits[u[i + k] >> 3] >> (u[i + k] & 7)) & 1;
        if (in != 0 && (size_t)in != n)
            return (Py_ssize_t)i;
        i += n;
    }
    return -1;
}

static const char split_detail[] =
    "the set escapes part of this character, so the result is not UTF-8 (encode the str's "
    "bytes to get bytes)";

/* A scratch buffer: on the stack when small; or (op_buffer) the bytes
 * object that becomes the result. */
typedef struct scratch {
    char *p;
    PyObject *bytes;
    char stack[STACK_BYTES];
} scratch;

static char *scratch_get(scratch *s, size_t n)
{
    s->bytes = NULL;
    if (n <= STACK_BYTES) {
        s->p = s->stack;
        return s->p;
    }
    s->p = PyMem_Malloc(n);
    if (s->p == NULL)
        PyErr_NoMemory();
    return s->p;
}

static void scratch_free(scratch *s)
{
    if (s->bytes != NULL)
        Py_CLEAR(s->bytes);
    else if (s->p != NULL && s->p != s->stack)
        PyMem_Free(s->p);
    s->p = NULL;
}

static pct_result do_decode(const char *src, size_t len, char *dst, const pct_set *keep,
                            unsigned flags, int may_release)
{
    pct_result r;
    if (may_release && len >= RELEASE_GIL_BYTES) {
        Py_BEGIN_ALLOW_THREADS r = pct_decode_except(src, len, dst, keep, flags);
        Py_END_ALLOW_THREADS
    } else {
        r = pct_decode_except(src, len, dst, keep, flags);
    }
    return r;
}

static pct_result do_encode(const char *src, size_t len, char *dst, const pct_set *set,
                            unsigned flags, int may_release)
{
    pct_result r;
    if (may_release && len >= RELEASE_GIL_BYTES) {
        Py_BEGIN_ALLOW_THREADS r = pct_encode(src, len, dst, set, flags);
        Py_END_ALLOW_THREADS
    } else {
        r = pct_encode(src, len, dst, set, flags);
    }
    return r;
}

/* Runs stmt with the GIL released when release is true. */
#define RUN_MAYBE_RELEASED(release, stmt)                                                          \
    do {                                                                                           \
        if (release) {                                                                             \
            Py_BEGIN_ALLOW_THREADS stmt;                                                           \
            Py_END_ALLOW_THREADS                                                                   \
        } else {                                                                                   \
            stmt;                                                                                  \
        }                                                                                          \
    } while (0)

/* An optional str argument as a C string; 0 if absent (NULL or None), 1 if
 * it is an exact str without NUL or surrogates, -1 otherwise (no exception
 * set: the caller falls back). */
static int str_arg(PyObject *o, const char **out)
{
    *out = NULL;
    if (o == NULL || o == Py_None)
        return 0;
    if (!PyUnicode_CheckExact(o))
        return -1;
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(o, &n);
    if (s == NULL) {
        PyErr_Clear();
        return -1;
    }
    if ((size_t)n != strlen(s))
        return -1;
    *out = s;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* urllib.parse drop-ins: unquote family                                     */
/* ------------------------------------------------------------------------ */

/* 1 for the names under which PyUnicode_Decode runs its own UTF-8 decoder
 * (no codec lookup): utf-8, utf8, utf_8 in any case. */
static int is_utf8_name(const char *encoding)
{
    return PyOS_stricmp(encoding, "utf-8") == 0 || PyOS_stricmp(encoding, "utf8") == 0 ||
           PyOS_stricmp(encoding, "utf_8") == 0;
}

/* Decodes ASCII bytes src[0..len) (lenient) and then with the codec. */
static PyObject *decode_run(const char *src, size_t len, const char *encoding, const char *errors,
                            unsigned flags, int may_release)
{
    scratch s;
    char *buf = scratch_get(&s, len);
    if (buf == NULL && len != 0)
        return NULL;
    pct_result r = do_decode(src, len, buf, NULL, flags, may_release);
    PyObject *out = NULL;
    if (r.status == PCT_OK && is_utf8_name(encoding))
        out = str_from_utf8(buf, r.count, errors);
    else if (r.status == PCT_OK)
        out = PyUnicode_Decode(buf, (Py_ssize_t)r.count, encoding, errors);
    else
        raise_error(r, -1);
    scratch_free(&s);
    return out;
}

/* unquote() of an exact str, with encoding and errors resolved. */
static PyObject *unquote_str(PyObject *string, const char *encoding, const char *errors)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(string);
    if (PyUnicode_IS_ASCII(string)) {
        const char *data = (const char *)PyUnicode_DATA(string);
        if (memchr(data, '%', (size_t)n) == NULL)
            return Py_NewRef(string);
        return decode_run(data, (size_t)n, encoding, errors, 0, 1);
    }
    if (PyUnicode_FindChar(string, '%', 0, n, 1) == -1)
        return Py_NewRef(string);
    /* As urllib: split into maximal ASCII runs, each decoded and then run
     * through the codec; the other characters are kept. */
    const int kind = PyUnicode_KIND(string);
    const void *data = PyUnicode_DATA(string);
    PyObject *pieces = PyList_New(0);
    scratch s;
    char *buf = scratch_get(&s, (size_t)n);
    if (pieces == NULL || buf == NULL)
        goto fail;
    Py_ssize_t i = 0;
    while (i < n) {
        Py_ssize_t j = i;
        while (j < n && PyUnicode_READ(kind, data, j) >= 128)
            j++;
        /* non-ASCII text [i, j) */
        PyObject *piece = PyUnicode_Substring(string, i, j);
        if (piece == NULL || PyList_Append(pieces, piece) < 0) {
            Py_XDECREF(piece);
            goto fail;
        }
        Py_DECREF(piece);
        if (j == n)
            break;
        i = j;
        while (j < n && PyUnicode_READ(kind, data, j) < 128) {
            buf[j - i] = (char)PyUnicode_READ(kind, data, j);
            j++;
        }
        /* buf is this call's own copy: a long run may be decoded without the GIL */
        piece = decode_run(buf, (size_t)(j - i), encoding, errors, 0, 1);
        if (piece == NULL || PyList_Append(pieces, piece) < 0) {
            Py_XDECREF(piece);
            goto fail;
        }
        Py_DECREF(piece);
        i = j;
        if (i == n) { /* urllib's split ends with an empty non-ASCII piece */
            break;
        }
    }
    scratch_free(&s);
    PyObject *empty = PyUnicode_New(0, 0);
    PyObject *out = empty ? PyUnicode_Join(empty, pieces) : NULL;
    Py_XDECREF(empty);
    Py_DECREF(pieces);
    return out;
fail:
    scratch_free(&s);
    Py_XDECREF(pieces);
    return NULL;
}

static const char *const unquote_names[] = {"string", "encoding", "errors"};

PyDoc_STRVAR(unquote_doc,
             "unquote($module, /, string, encoding='utf-8', errors='replace')\n--\n\n"
             "urllib.parse.unquote, in C: %xx escapes replaced by their bytes, decoded\n"
             "with encoding and errors. Same results and exceptions as urllib.parse.");

static PyObject *py_unquote(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames)
{
    (void)self;
    PyObject *a[3];
    const char *enc, *err;
    if (parse_args(args, nargs, kwnames, unquote_names, 3, 1, a) == 0) {
        int e1 = str_arg(a[1], &enc), e2 = str_arg(a[2], &err);
        if (PyUnicode_CheckExact(a[0]) && e1 >= 0 && e2 >= 0)
            return unquote_str(a[0], enc ? enc : "utf-8", err ? err : "replace");
        /* bytes: .decode(encoding, errors), where an explicit None fails */
        if (PyBytes_CheckExact(a[0]) && (a[1] == NULL || e1 > 0) && (a[2] == NULL || e2 > 0))
            return decode_run(PyBytes_AS_STRING(a[0]), (size_t)PyBytes_GET_SIZE(a[0]),
                              enc ? enc : "utf-8", err ? err : "replace", 0, 1);
    }
    return urllib_call("unquote", args, nargs, kwnames);
}

PyDoc_STRVAR(unquote_plus_doc,
             "unquote_plus($module, /, string, encoding='utf-8', errors='replace')\n--\n\n"
             "urllib.parse.unquote_plus, in C: '+' is a space, then unquote().");

static PyObject *py_unquote_plus(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kwnames)
{
    (void)self;
    PyObject *a[3];
    const char *enc, *err;
    if (parse_args(args, nargs, kwnames, unquote_names, 3, 1, a) == 0 &&
        PyUnicode_CheckExact(a[0]) && str_arg(a[1], &enc) >= 0 && str_arg(a[2], &err) >= 0) {
        enc = enc ? enc : "utf-8";
        err = err ? err : "replace";
        PyObject *string = a[0];
        if (PyUnicode_IS_ASCII(string)) {
            const char *data = (const char *)PyUnicode_DATA(string);
            size_t n = (size_t)PyUnicode_GET_LENGTH(string);
            if (memchr(data, '%', n) != NULL)
                return decode_run(data, n, enc, err, PCT_PLUS, 1);
        }
        static PyObject *plus, *space;
        if (plus == NULL && ((plus = PyUnicode_InternFromString("+")) == NULL ||
                             (space = PyUnicode_InternFromString(" ")) == NULL))
            return NULL;
        PyObject *replaced = PyUnicode_Replace(string, plus, space, -1);
        if (replaced == NULL)
            return NULL;
        PyObject *out = unquote_str(replaced, enc, err);
        Py_DECREF(replaced);
        return out;
    }
    return urllib_call("unquote_plus", args, nargs, kwnames);
}

PyDoc_STRVAR(unquote_to_bytes_doc, "unquote_to_bytes($module, /, string)\n--\n\n"
                                   "urllib.parse.unquote_to_bytes, in C: %xx escapes replaced "
                                   "by their bytes\n(a str is first encoded as UTF-8).");

static PyObject *py_unquote_to_bytes(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = {"string"};
    PyObject *a[1];
    if (parse_args(args, nargs, kwnames, names, 1, 1, a) == 0) {
        PyObject *string = a[0], *encoded = NULL;
        const char *data = NULL;
        Py_ssize_t n = 0;
        if (PyBytes_CheckExact(string)) {
            data = PyBytes_AS_STRING(string);
            n = PyBytes_GET_SIZE(string);
            if (memchr(data, '%', (size_t)n) == NULL)
                return n ? Py_NewRef(string) : PyBytes_FromStringAndSize(NULL, 0);
        } else if (PyUnicode_CheckExact(string)) {
            if (PyUnicode_IS_ASCII(string)) {
                data = (const char *)PyUnicode_DATA(string);
                n = PyUnicode_GET_LENGTH(string);
            } else {
                encoded = PyUnicode_AsUTF8String(string);
                if (encoded == NULL)
                    return NULL;
                data = PyBytes_AS_STRING(encoded);
                n = PyBytes_GET_SIZE(encoded);
            }
        }
        if (data != NULL && n == 0) {
            Py_XDECREF(encoded);
            return PyBytes_FromStringAndSize(NULL, 0);
        }
        if (data != NULL) {
            PyObject *out = PyBytes_FromStringAndSize(NULL, n);
            if (out != NULL) {
                pct_result r = do_decode(data, (size_t)n, PyBytes_AS_STRING(out), NULL, 0, 1);
                if (_PyBytes_Resize(&out, (Py_ssize_t)r.count) < 0)
                    out = NULL;
            }
            Py_XDECREF(encoded);
            return out;
        }
    }
    return urllib_call("unquote_to_bytes", args, nargs, kwnames);
}

/* ------------------------------------------------------------------------ */
/* urllib.parse drop-ins: quote family                                       */
/* ------------------------------------------------------------------------ */

/* Every byte but A-Z a-z 0-9 _ . - ~ (urllib's always-safe bytes). */
static pct_set quote_base;

/* The set quote_from_bytes escapes for this safe (exact str or bytes);
 * -1 for another type. */
static int quote_set(PyObject *safe, pct_set *set)
{
    *set = quote_base;
    if (PyUnicode_CheckExact(safe)) {
        const int kind = PyUnicode_KIND(safe);
        const void *data = PyUnicode_DATA(safe);
        for (Py_ssize_t i = 0, n = PyUnicode_GET_LENGTH(safe); i < n; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            if (c < 128)
                pct_set_remove_byte(set, (unsigned char)c);
        }
        return 0;
    }
    if (PyBytes_CheckExact(safe)) {
        const unsigned char *b = (const unsigned char *)PyBytes_AS_STRING(safe);
        for (Py_ssize_t i = 0, n = PyBytes_GET_SIZE(safe); i < n; i++)
            if (b[i] < 128)
                pct_set_remove_byte(set, b[i]);
        return 0;
    }
    return -1;
}

/* The quoted ASCII str of src[0..len). */
static PyObject *quote_bytes(const char *src, size_t len, const pct_set *set, unsigned flags,
                             int may_release)
{
    size_t n = pct_encode_length(src, len, set, flags);
    if (n > (size_t)PY_SSIZE_T_MAX)
        return PyErr_NoMemory();
    PyObject *out = PyUnicode_New((Py_ssize_t)n, 127);
    if (out == NULL)
        return NULL;
    pct_result r = do_encode(src, len, (char *)PyUnicode_1BYTE_DATA(out), set, flags, may_release);
    if (r.status != PCT_OK || r.count != n) {
        Py_DECREF(out);
        return raise_error(r, -1);
    }
    return out;
}

PyDoc_STRVAR(quote_from_bytes_doc,
             "quote_from_bytes($module, /, bs, safe='/')\n--\n\n"
             "urllib.parse.quote_from_bytes, in C: every byte but A-Z a-z 0-9 _.-~ and the\n"
             "ASCII characters of safe written %XX.");

static PyObject *py_quote_from_bytes(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = {"bs", "safe"};
    PyObject *a[2];
    pct_set set;
    if (parse_args(args, nargs, kwnames, names, 2, 1, a) == 0 && PyBytes_CheckExact(a[0])) {
        if (a[1] == NULL) {
            set = quote_base;
            pct_set_remove_byte(&set, '/');
        } else if (quote_set(a[1], &set) < 0) {
            return urllib_call("quote_from_bytes", args, nargs, kwnames);
        }
        return quote_bytes(PyBytes_AS_STRING(a[0]), (size_t)PyBytes_GET_SIZE(a[0]), &set, 0, 1);
    }
    return urllib_call("quote_from_bytes", args, nargs, kwnames);
}

/* quote() and quote_plus(); NULL with no exception: hand to urllib. */
static PyObject *quote_common(PyObject *const *a, int plus)
{
    PyObject *string = a[0], *safe = a[1];
    const char *enc, *err;
    int e1 = str_arg(a[2], &enc), e2 = str_arg(a[3], &err);
    pct_set set;
    if (e1 < 0 || e2 < 0)
        return NULL;
    if (safe == NULL) {
        set = quote_base;
        if (!plus)
            pct_set_remove_byte(&set, '/');
    } else if (quote_set(safe, &set) < 0) {
        return NULL;
    }
    if (PyUnicode_CheckExact(string)) {
        Py_ssize_t n = PyUnicode_GET_LENGTH(string);
        if (n == 0)
            return Py_NewRef(string);
        unsigned flags = 0;
        if (plus && PyUnicode_FindChar(string, ' ', 0, n, 1) >= 0) {
            pct_set_add_byte(&set, ' '); /* ' ' then '+', as urllib's replace */
            flags = PCT_PLUS;
        }
        if (PyUnicode_IS_ASCII(string) && (!enc || !strcmp(enc, "utf-8") || !strcmp(enc, "ascii")))
            return quote_bytes((const char *)PyUnicode_DATA(string), (size_t)n, &set, flags, 1);
        PyObject *encoded;
        if (enc == NULL && err == NULL)
            encoded = PyUnicode_AsUTF8String(string);
        else
            encoded = PyUnicode_AsEncodedString(string, enc ? enc : "utf-8", err ? err : "strict");
        if (encoded == NULL)
            return NULL;
        PyObject *out = NULL;
        if (PyBytes_Check(encoded))
            out = quote_bytes(PyBytes_AS_STRING(encoded), (size_t)PyBytes_GET_SIZE(encoded), &set,
                              flags, 1);
        else
            PyErr_SetString(PyExc_TypeError, "encoder did not return bytes");
        Py_DECREF(encoded);
        return out;
    }
    if (PyBytes_CheckExact(string) && e1 == 0 && e2 == 0) {
        const char *b = PyBytes_AS_STRING(string);
        size_t n = (size_t)PyBytes_GET_SIZE(string);
        unsigned flags = 0;
        if (plus && memchr(b, ' ', n) != NULL) {
            pct_set_add_byte(&set, ' ');
            flags = PCT_PLUS;
        }
        return quote_bytes(b, n, &set, flags, 1);
    }
    return NULL;
}

/* quote (plus 0) and quote_plus (1): in C where quote_common takes the
 * arguments, else urllib.parse itself. */
static PyObject *quote_call(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int plus)
{
    static const char *const names[] = {"string", "safe", "encoding", "errors"};
    PyObject *a[4];
    if (parse_args(args, nargs, kwnames, names, 4, 1, a) == 0) {
        PyObject *r = quote_common(a, plus);
        if (r != NULL || PyErr_Occurred())
            return r;
    }
    return urllib_call(plus ? "quote_plus" : "quote", args, nargs, kwnames);
}

PyDoc_STRVAR(quote_doc, "quote($module, /, string, safe='/', encoding=None, errors=None)\n--\n\n"
                        "urllib.parse.quote, in C.");

static PyObject *py_quote(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames)
{
    (void)self;
    return quote_call(args, nargs, kwnames, 0);
}

PyDoc_STRVAR(quote_plus_doc,
             "quote_plus($module, /, string, safe='', encoding=None, errors=None)\n--\n\n"
             "urllib.parse.quote_plus, in C: quote(), and ' ' written '+'.");

static PyObject *py_quote_plus(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames)
{
    (void)self;
    return quote_call(args, nargs, kwnames, 1);
}

/* ------------------------------------------------------------------------ */
/* libpct's operations                                                       */
/* ------------------------------------------------------------------------ */

/* The bytes of an argument: a str (as UTF-8) or a bytes-like object. */
typedef struct input {
    const char *p;
    size_t len;
    int is_str;
    int immutable; /* str or bytes: the GIL may be released */
    Py_buffer view;
    int has_view;
} input;

static int input_get(PyObject *o, input *in, const char *fname)
{
    memset(in, 0, sizeof *in);
    if (PyUnicode_Check(o)) {
        Py_ssize_t n;
        in->p = PyUnicode_AsUTF8AndSize(o, &n);
        if (in->p == NULL)
            return -1;
        in->len = (size_t)n;
        in->is_str = 1;
        in->immutable = 1;
        return 0;
    }
    if (PyObject_GetBuffer(o, &in->view, PyBUF_SIMPLE) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s() expects str or a bytes-like object, not %.100s", fname,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    in->has_view = 1;
    in->p = in->view.buf;
    in->len = (size_t)in->view.len;
    in->immutable = PyBytes_CheckExact(o);
    return 0;
}

/* Whether an operation on in runs with the GIL released: a long input that
 * no other thread can change meanwhile (str, bytes). */
static int input_may_release(const input *in)
{
    return in->immutable && in->len >= RELEASE_GIL_BYTES;
}

static void input_release(input *in)
{
    if (in->has_view)
        PyBuffer_Release(&in->view);
}

/* The result, as str (UTF-8) for a str input, else bytes. */
static PyObject *output_make(const input *in, const char *buf, size_t n)
{
    if (in->is_str)
        return PyUnicode_DecodeUTF8(buf, (Py_ssize_t)n, "strict");
    return PyBytes_FromStringAndSize(buf, (Py_ssize_t)n);
}

/* A set argument: NULL/None (the default name), a predefined set's name, or
 * 32 bytes (bit b & 7 of byte b >> 3 for byte b). */
static int set_arg(PyObject *o, const char *def, pct_set *set, const pct_set **out)
{
    if (o == NULL || o == Py_None) {
        if (def == NULL) {
            *out = NULL;
            return 0;
        }
        *set = *pct_set_by_name(def);
        *out = set;
        return 0;
    }
    if (PyUnicode_Check(o)) {
        const char *name = PyUnicode_AsUTF8(o);
        if (name == NULL)
            return -1;
        const pct_set *s = pct_set_by_name(name);
        if (s == NULL) {
            PyErr_Format(PyExc_ValueError, "unknown set name %R", o);
            return -1;
        }
        *set = *s;
        *out = set;
        return 0;
    }
    Py_buffer v;
    if (PyObject_GetBuffer(o, &v, PyBUF_SIMPLE) == 0) {
        int ok = v.len == 32;
        if (ok)
            memcpy(set->bits, v.buf, 32);
        PyBuffer_Release(&v);
        if (ok) {
            *out = set;
            return 0;
        }
    } else {
        PyErr_Clear();
    }
    PyErr_SetString(PyExc_TypeError,
                    "a set is a name ('component', 'rfc3986', ...) or 32 bytes (pct.make_set)");
    return -1;
}

static int flags_arg(PyObject *o, unsigned *flags)
{
    *flags = 0;
    if (o == NULL)
        return 0;
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0 || v > 0xFFFF) {
        PyErr_SetString(PyExc_ValueError, "flags out of range");
        return -1;
    }
    *flags = (unsigned)v;
    return 0;
}

/* The end of a library operation called into a scratch buffer: its output
 * as the input's type, or pct.Error; the buffer and the input released. */
static PyObject *op_finish(input *in, scratch *s, const char *buf, pct_result r)
{
    PyObject *out;
    if (r.status != PCT_OK) {
        out = raise_error(r, -1);
    } else if (s->bytes != NULL) { /* the buffer is the result: cut to its length */
        out = s->bytes;
        s->bytes = NULL;
        s->p = NULL;
        if (_PyBytes_Resize(&out, (Py_ssize_t)r.count) < 0)
            out = NULL;
    } else {
        out = output_make(in, buf, r.count);
    }
    scratch_free(s);
    input_release(in);
    return out;
}

/* A buffer of n bytes for an operation on in, or NULL (MemoryError set, the
 * input released). A large one for a bytes result is that result, written
 * in place (with the GIL released: no copy of a long output holds it). */
static char *op_buffer(input *in, scratch *s, size_t n)
{
    char *buf;
    if (!in->is_str && n > STACK_BYTES) {
        s->bytes = n <= (size_t)PY_SSIZE_T_MAX / 2 ? PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n)
                                                   : PyErr_NoMemory();
        buf = s->p = s->bytes ? PyBytes_AS_STRING(s->bytes) : NULL;
    } else {
        buf = scratch_get(s, n);
    }
    if (buf == NULL)
        input_release(in);
    return buf;
}

/* n times k, or SIZE_MAX if that overflows (a buffer that cannot be had). */
static size_t times_or_max(size_t n, size_t k)
{
    return n > SIZE_MAX / k ? SIZE_MAX : n * k;
}

/* The arguments (data, set='component', flags=0) of encode and validate; -1
 * with the exception set, else in is to be released. */
static int data_set_flags_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                               const char *fname, input *in, pct_set *storage, const pct_set **set,
                               unsigned *flags)
{
    static const char *const names[] = {"data", "set", "flags"};
    PyObject *a[3];
    if (parse_args(args, nargs, kwnames, names, 3, 1, a) < 0) {
        arg_error(fname);
        return -1;
    }
    if (set_arg(a[1], "component", storage, set) < 0 || flags_arg(a[2], flags) < 0)
        return -1;
    return input_get(a[0], in, fname);
}

PyDoc_STRVAR(encode_doc,
             "encode($module, /, data, set='component', flags=0)\n--\n\n"
             "pct_encode: every byte of data in set written %XX. data: str (result str)\n"
             "or bytes-like (result bytes); set: a name or 32 bytes (make_set); flags:\n"
             "PLUS, KEEP_ESCAPES, UTF8. Raises pct.Error.\n\n"
             "A str is encoded as UTF-8 and the result must be UTF-8 too: a set that\n"
             "escapes some bytes of a character but not the others (make_set(None,\n"
             "add=b'\\xa9') and '\\u00e9') raises pct.Error (INVALID_UTF8, .offset: the\n"
             "UTF-8 offset of that character). Pass data.encode() to get those bytes.");

static PyObject *py_encode(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames)
{
    (void)self;
    pct_set storage;
    const pct_set *set;
    unsigned flags;
    input in;
    if (data_set_flags_args(args, nargs, kwnames, "encode", &in, &storage, &set, &flags) < 0)
        return NULL;
    scratch s;
    char *buf = op_buffer(&in, &s, times_or_max(in.len, 3));
    if (buf == NULL)
        return NULL;
    pct_result r = do_encode(in.p, in.len, buf, set, flags, in.immutable);
    if (r.status == PCT_OK && in.is_str && set_splits_characters(set)) {
        Py_ssize_t at = split_character(in.p, in.len, set);
        if (at >= 0) {
            scratch_free(&s);
            input_release(&in);
            return raise_error_detail((pct_result){PCT_INVALID_UTF8, (size_t)at}, -1, split_detail);
        }
    }
    return op_finish(&in, &s, buf, r);
}

PyDoc_STRVAR(decode_doc,
             "decode($module, /, data, flags=0, keep=None)\n--\n\n"
             "pct_decode_except: %XX replaced by its byte (escapes of bytes in keep stay).\n"
             "flags: PLUS, STRICT, UTF8, UTF8_REPLACE, PERCENT_U. A str input gives a str\n"
             "(and implies UTF8 unless UTF8_REPLACE). Raises pct.Error.");

static PyObject *py_decode(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = {"data", "flags", "keep"};
    PyObject *a[3];
    pct_set storage;
    const pct_set *keep;
    unsigned flags;
    input in;
    if (parse_args(args, nargs, kwnames, names, 3, 1, a) < 0)
        return arg_error("decode");
    if (flags_arg(a[1], &flags) < 0 || set_arg(a[2], NULL, &storage, &keep) < 0 ||
        input_get(a[0], &in, "decode") < 0)
        return NULL;
    if (in.is_str && !(flags & PCT_UTF8_REPLACE))
        flags |= PCT_UTF8;
    scratch s;
    char *buf = op_buffer(&in, &s, flags & PCT_UTF8_REPLACE ? times_or_max(in.len, 3) : in.len);
    if (buf == NULL)
        return NULL;
    return op_finish(&in, &s, buf, do_decode(in.p, in.len, buf, keep, flags, in.immutable));
}

PyDoc_STRVAR(normalize_doc, "normalize($module, /, data, flags=0)\n--\n\n"
                            "pct_normalize (RFC 3986 6.2.2.1-2): escapes upper-cased, escapes "
                            "of\nunreserved bytes decoded. flags: STRICT. Raises pct.Error.");

static PyObject *py_normalize(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = {"data", "flags"};
    PyObject *a[2];
    unsigned flags;
    input in;
    if (parse_args(args, nargs, kwnames, names, 2, 1, a) < 0)
        return arg_error("normalize");
    if (flags_arg(a[1], &flags) < 0 || input_get(a[0], &in, "normalize") < 0)
        return NULL;
    scratch s;
    char *buf = op_buffer(&in, &s, in.len);
    if (buf == NULL)
        return NULL;
    pct_result r;
    RUN_MAYBE_RELEASED(input_may_release(&in), r = pct_normalize(in.p, in.len, buf, flags));
    return op_finish(&in, &s, buf, r);
}

PyDoc_STRVAR(validate_doc,
             "validate($module, /, data, set='component', flags=0)\n--\n\n"
             "pct_validate: checks that data is correctly encoded for set; returns the\n"
             "length decode() would give, or raises pct.Error (status, offset).");

static PyObject *py_validate(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames)
{
    (void)self;
    pct_set storage;
    const pct_set *set;
    unsigned flags;
    input in;
    if (data_set_flags_args(args, nargs, kwnames, "validate", &in, &storage, &set, &flags) < 0)
        return NULL;
    pct_result r;
    RUN_MAYBE_RELEASED(input_may_release(&in), r = pct_validate(in.p, in.len, set, flags));
    input_release(&in);
    if (r.status != PCT_OK)
        return raise_error(r, -1);
    return PyLong_FromSize_t(r.count);
}

PyDoc_STRVAR(
    normalize_path_doc,
    "normalize_path($module, /, data, policy='default', *, encoded_slash=None,\n"
    "               encoded_backslash=None, encoded_nul=None, encoded_semicolon=None,\n"
    "               encoded_percent=None, encoded_question=None, encoded_hash=None,\n"
    "               encoded_control=None, merge_slashes=None, backslash=None, strict=None,\n"
    "               utf8=None, reject_above_root=None, dot_params=None,\n"
    "               reject_dot_params=None, reject_changed=None, report=False)\n--\n\n"
    "pct_normalize_path_v2: the path of a request target (up to its first '?' or\n"
    "'#') normalized for a proxy: escapes, dot segments, slashes; the rest kept.\n"
    "The keywords are `pct path`'s options, applied to the preset in this order:\n\n"
    "policy: 'default', 'nginx', 'envoy', 'apache', 'traefik' or 'strict'.\n"
    "encoded_*: 'keep', 'decode' or 'reject' for an escape of that class (%2F,\n"
    "  %5C, %00, %3B, %25, %3F, %23; control: %00-%1F and %7F, where encoded_nul\n"
    "  wins for %00); %00, %3F, %23 and the controls cannot be decoded.\n"
    "merge_slashes, backslash, strict, utf8, reject_above_root, dot_params,\n"
    "  reject_dot_params, reject_changed: True or False turns the option\n"
    "  (PCT_PATH_*) on or off; None keeps the preset's.\n"
    "report: True returns (path, PathReport): .changes, the names of what\n"
    "  normalization did ('decode-unreserved', 'remove-dots', ... as `pct path\n"
    "  --report`), .first_change, the offset of the first token it changed or\n"
    "  removed (len(data) if none), .bits (PATH_DID_*).\n\n"
    "A str input gives a str and must stay UTF-8 (utf8 is on; utf8=False is a\n"
    "ValueError); offsets count bytes of its UTF-8. Raises pct.Error: REJECTED_BYTE\n"
    "(an escape the policy rejects, .offset its '%'), REJECTED_PATH (refused by\n"
    "reject_above_root, reject_dot_params or reject_changed: .offset, and .report,\n"
    "what normalization had done up to there), INVALID_UTF8, INVALID_ESCAPE.");

/* The keywords of normalize_path after data and policy: the classes (in
 * pct_path_class order), then the options. */
static const char *const path_names[] = {"data",
                                         "policy",
                                         "encoded_slash",
                                         "encoded_backslash",
                                         "encoded_nul",
                                         "encoded_semicolon",
                                         "encoded_percent",
                                         "encoded_question",
                                         "encoded_hash",
                                         "encoded_control",
                                         "merge_slashes",
                                         "backslash",
                                         "strict",
                                         "utf8",
                                         "reject_above_root",
                                         "dot_params",
                                         "reject_dot_params",
                                         "reject_changed",
                                         "report"};
#define PATH_FIRST_CLASS 2
#define PATH_FIRST_OPTION (PATH_FIRST_CLASS + PCT_PATH_CLASSES)
static const unsigned path_option_bits[] = {PCT_PATH_MERGE_SLASHES,
                                            PCT_PATH_BACKSLASH,
                                            PCT_PATH_STRICT,
                                            PCT_PATH_UTF8,
                                            PCT_PATH_REJECT_ABOVE_ROOT,
                                            PCT_PATH_DOT_PARAMS,
                                            PCT_PATH_REJECT_DOT_PARAMS,
                                            PCT_PATH_REJECT_CHANGED};
#define PATH_NOPTIONS ((int)(sizeof path_option_bits / sizeof path_option_bits[0]))
#define PATH_NNAMES (PATH_FIRST_OPTION + PATH_NOPTIONS + 1)

static PyTypeObject *PathReport; /* pct.PathReport */

/* A pct.PathReport of a pct_path_report. */
static PyObject *path_report_new(const pct_path_report *report)
{
    char names[256];
    size_t n = pct_path_report_format(report->changes, names, sizeof names);
    PyObject *changes = NULL, *text = NULL, *comma = NULL, *out = NULL;
    if (n >= sizeof names) {
        PyErr_SetString(PyExc_SystemError, "normalize_path: report names too long");
        return NULL;
    }
    if (n == 0) {
        changes = PyTuple_New(0);
    } else if ((text = PyUnicode_FromStringAndSize(names, (Py_ssize_t)n)) != NULL &&
               (comma = PyUnicode_FromString(",")) != NULL) {
        PyObject *list = PyUnicode_Split(text, comma, -1);
        changes = list ? PyList_AsTuple(list) : NULL;
        Py_XDECREF(list);
    }
    Py_XDECREF(text);
    Py_XDECREF(comma);
    if (changes == NULL)
        return NULL;
    out = PyStructSequence_New(PathReport);
    PyObject *first = PyLong_FromSize_t(report->first_change);
    PyObject *bits = PyLong_FromUnsignedLong(report->changes);
    if (out == NULL || first == NULL || bits == NULL) {
        Py_XDECREF(out);
        Py_XDECREF(first);
        Py_XDECREF(bits);
        Py_DECREF(changes);
        return NULL;
    }
    PyStructSequence_SET_ITEM(out, 0, changes);
    PyStructSequence_SET_ITEM(out, 1, first);
    PyStructSequence_SET_ITEM(out, 2, bits);
    return out;
}

/* The action named by an encoded_* argument; -1 with an exception set. */
static int path_action_arg(PyObject *o, const char *name)
{
    static const char *const actions[] = {"keep", "decode", "reject"};
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError,
                     "normalize_path(): %s is 'keep', 'decode' or 'reject', not %.100s", name,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    for (int i = 0; i < 3; i++)
        if (PyUnicode_CompareWithASCIIString(o, actions[i]) == 0)
            return i;
    PyErr_Format(PyExc_ValueError, "normalize_path(): %s is 'keep', 'decode' or 'reject', not %R",
                 name, o);
    return -1;
}

/* The preset of that name (with PCT_PATH_UTF8 added if utf8), or NULL:
 * made once by pct_path_policy_v2_init, so that a call with no option
 * neither fills nor copies 256 actions. */
static const pct_path_policy_v2 *path_preset(const char *name, int utf8)
{
    static const char *const names[] = {"default", "nginx", "envoy", "apache", "traefik", "strict"};
    enum {
        NPRESETS = sizeof names / sizeof names[0]
    };
    static int ready[NPRESETS];
    static pct_path_policy_v2 presets[NPRESETS][2];
    for (size_t i = 0; i < NPRESETS; i++) {
        if (strcmp(name, names[i]) != 0)
            continue;
        if (!ready[i]) {
            if (pct_path_policy_v2_init(&presets[i][0], name) != PCT_OK)
                return NULL;
            presets[i][1] = presets[i][0];
            presets[i][1].options |= PCT_PATH_UTF8;
            ready[i] = 1;
        }
        return &presets[i][utf8 != 0];
    }
    return NULL;
}

/* The v2 policy of normalize_path's arguments a[1..]; -1 with an exception
 * set. As `pct path`: the preset, then the classes (encoded_control first,
 * so that encoded_nul wins for %00), then the options. */
static int path_policy_args(PyObject *const *a, int is_str, pct_path_policy_v2 *storage,
                            const pct_path_policy_v2 **out)
{
    const char *name = "default";
    if (a[1] != NULL && a[1] != Py_None) {
        name = PyUnicode_Check(a[1]) ? PyUnicode_AsUTF8(a[1]) : NULL;
        if (name == NULL) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "normalize_path(): policy is a name, not %.100s",
                             Py_TYPE(a[1])->tp_name);
            return -1;
        }
    }
    const pct_path_policy_v2 *preset = path_preset(name, is_str);
    if (preset == NULL) {
        PyErr_Format(PyExc_ValueError,
                     "unknown policy %R (default, nginx, envoy, apache, traefik, strict)", a[1]);
        return -1;
    }
    *out = preset;
    int options_given = 0;
    for (int k = PATH_FIRST_CLASS; k < PATH_FIRST_OPTION + PATH_NOPTIONS; k++)
        options_given |= a[k] != NULL && a[k] != Py_None;
    if (!options_given)
        return 0;
    pct_path_policy_v2 *policy = storage;
    *policy = *preset;
    *out = policy;
    static const pct_path_class order[PCT_PATH_CLASSES] = {
        PCT_PATH_CLASS_CONTROL,   PCT_PATH_CLASS_NUL,       PCT_PATH_CLASS_SLASH,
        PCT_PATH_CLASS_BACKSLASH, PCT_PATH_CLASS_SEMICOLON, PCT_PATH_CLASS_PERCENT,
        PCT_PATH_CLASS_QUESTION,  PCT_PATH_CLASS_HASH};
    for (int k = 0; k < PCT_PATH_CLASSES; k++) {
        const pct_path_class c = order[k];
        PyObject *o = a[PATH_FIRST_CLASS + c];
        if (o == NULL || o == Py_None)
            continue;
        const char *argname = path_names[PATH_FIRST_CLASS + c];
        int action = path_action_arg(o, argname);
        if (action < 0)
            return -1;
        if (c == PCT_PATH_CLASS_CONTROL)
            pct_path_policy_v2_set(policy, PCT_PATH_CLASS_NUL, (pct_path_action)action);
        if (pct_path_policy_v2_set(policy, c, (pct_path_action)action) != PCT_OK) {
            PyErr_Format(PyExc_ValueError, "normalize_path(): %s='decode': a decoded byte would %s",
                         argname,
                         c == PCT_PATH_CLASS_QUESTION || c == PCT_PATH_CLASS_HASH
                             ? "end the path"
                             : "reach the next hop raw (request splitting)");
            return -1;
        }
    }
    for (int k = 0; k < PATH_NOPTIONS; k++) {
        PyObject *o = a[PATH_FIRST_OPTION + k];
        if (o == NULL || o == Py_None)
            continue;
        int on = PyObject_IsTrue(o);
        if (on < 0)
            return -1;
        if (on)
            policy->options |= path_option_bits[k];
        else
            policy->options &= ~path_option_bits[k];
    }
    if (is_str) {
        PyObject *utf8 = a[PATH_FIRST_OPTION + 3];
        if (utf8 != NULL && utf8 != Py_None && !PyObject_IsTrue(utf8)) {
            PyErr_SetString(PyExc_ValueError,
                            "normalize_path(): a str gives a str, which must be UTF-8: utf8=False "
                            "needs bytes");
            return -1;
        }
        policy->options |= PCT_PATH_UTF8;
    }
    return 0;
}

static PyObject *py_normalize_path(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames)
{
    (void)self;
    PyObject *a[PATH_NNAMES];
    input in;
    if (nargs > 2 || parse_args(args, nargs, kwnames, path_names, PATH_NNAMES, 1, a) < 0)
        return arg_error("normalize_path");
    int want_report = 0;
    if (a[PATH_NNAMES - 1] != NULL && (want_report = PyObject_IsTrue(a[PATH_NNAMES - 1])) < 0)
        return NULL;
    pct_path_policy_v2 storage;
    const pct_path_policy_v2 *policy;
    if (input_get(a[0], &in, "normalize_path") < 0)
        return NULL;
    if (path_policy_args(a, in.is_str, &storage, &policy) < 0) {
        input_release(&in);
        return NULL;
    }
    scratch s;
    char *buf = op_buffer(&in, &s, in.len);
    if (buf == NULL)
        return NULL;
    /* a report when asked for, or for the pct.Error of a refused path */
    pct_path_report report;
    const unsigned refusals =
        PCT_PATH_REJECT_ABOVE_ROOT | PCT_PATH_REJECT_DOT_PARAMS | PCT_PATH_REJECT_CHANGED;
    pct_path_report *want = want_report || (policy->options & refusals) ? &report : NULL;
    pct_result r;
    RUN_MAYBE_RELEASED(input_may_release(&in),
                       r = pct_normalize_path_v2(in.p, in.len, buf, policy, want));
    if (r.status == PCT_REJECTED_PATH) {
        /* the report says what was done up to the refusal */
        PyObject *exc = error_new(r, -1, NULL);
        PyObject *rep = exc ? path_report_new(&report) : NULL;
        if (rep != NULL && PyObject_SetAttrString(exc, "report", rep) == 0)
            PyErr_SetObject(Error, exc);
        Py_XDECREF(rep);
        Py_XDECREF(exc);
        scratch_free(&s);
        input_release(&in);
        return NULL;
    }
    PyObject *out = op_finish(&in, &s, buf, r);
    if (out == NULL || !want_report)
        return out;
    PyObject *rep = path_report_new(&report);
    PyObject *pair = rep ? PyTuple_Pack(2, out, rep) : NULL;
    Py_DECREF(out);
    Py_XDECREF(rep);
    return pair;
}

PyDoc_STRVAR(iri_to_uri_doc, "iri_to_uri($module, /, data)\n--\n\n"
                             "pct_iri_to_uri (RFC 3987 3.1): non-ASCII code points written as "
                             "%XX of\ntheir UTF-8. Raises pct.Error on ill-formed UTF-8.");

/* iri_to_uri and uri_to_iri: one argument, one library call into a buffer
 * of `factor` times the input. */
static PyObject *iri_convert(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                             const char *fname, pct_result (*convert)(const char *, size_t, char *),
                             size_t factor)
{
    static const char *const names[] = {"data"};
    PyObject *a[1];
    input in;
    if (parse_args(args, nargs, kwnames, names, 1, 1, a) < 0)
        return arg_error(fname);
    if (input_get(a[0], &in, fname) < 0)
        return NULL;
    scratch s;
    char *buf = op_buffer(&in, &s, times_or_max(in.len, factor));
    if (buf == NULL)
        return NULL;
    pct_result r;
    RUN_MAYBE_RELEASED(input_may_release(&in), r = convert(in.p, in.len, buf));
    return op_finish(&in, &s, buf, r);
}

static PyObject *py_iri_to_uri(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames)
{
    (void)self;
    return iri_convert(args, nargs, kwnames, "iri_to_uri", pct_iri_to_uri, 3);
}

PyDoc_STRVAR(uri_to_iri_doc, "uri_to_iri($module, /, data)\n--\n\n"
                             "pct_uri_to_iri (RFC 3987 3.2): escapes of well-formed UTF-8 "
                             "code points\nthat an IRI may hold decoded; everything else kept.");

static PyObject *py_uri_to_iri(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames)
{
    (void)self;
    return iri_convert(args, nargs, kwnames, "uri_to_iri", pct_uri_to_iri, 1);
}

/* ------------------------------------------------------------------------ */
/* Batches                                                                   */
/* ------------------------------------------------------------------------ */

/* decode_many and encode_many run the batch API a chunk at a time: up to
 * CHUNK_ITEMS items and CHUNK_BYTES of input are gathered into one buffer
 * and processed with the GIL released (for CHUNK >= RELEASE_GIL_BYTES),
 * then made into objects with it. A chunk's buffers are a few megabytes
 * whatever the batch (a batch of 200 MiB needs no 200 MiB buffers, and
 * keeps none after the call), stay in cache from the copy to the objects,
 * and are kept for the next call: page faults on fresh buffers cost more
 * than decoding them. POOL_SETS sets are kept, so that threads that run
 * batches at the same time each find one. An item of RELEASE_GIL_BYTES or
 * more is processed alone, with the GIL released, straight from its object
 * into its result's (bytes) or a buffer of its own (str), freed after: so
 * that the GIL is not held while large outputs are copied, and threads
 * that decode long items scale. */
#define CHUNK_BYTES ((size_t)1 << 20)
#define CHUNK_ITEMS 16384
#define POOL_SETS 2

typedef struct chunk_buffers {
    int64_t offsets[CHUNK_ITEMS + 1];
    int64_t out_offsets[CHUNK_ITEMS + 1];
    pct_result results[CHUNK_ITEMS];
    const char *src[CHUNK_ITEMS]; /* where each item's bytes are */
    char data[CHUNK_BYTES];
    char out[3 * CHUNK_BYTES];
} chunk_buffers;

/* Taken and given back with the GIL held. */
static chunk_buffers *chunk_pool[POOL_SETS];

static chunk_buffers *chunk_buffers_take(void)
{
    for (int i = 0; i < POOL_SETS; i++) {
        if (chunk_pool[i] != NULL) {
            chunk_buffers *b = chunk_pool[i];
            chunk_pool[i] = NULL;
            return b;
        }
    }
    chunk_buffers *b = PyMem_Malloc(sizeof *b);
    if (b == NULL)
        PyErr_NoMemory();
    return b;
}

static void chunk_buffers_give(chunk_buffers *b)
{
    for (int i = 0; i < POOL_SETS; i++) {
        if (chunk_pool[i] == NULL) {
            chunk_pool[i] = b;
            return;
        }
    }
    PyMem_Free(b);
}

/* The bytes of an item (a str as UTF-8, made by many()'s first pass). */
static const char *item_text(PyObject *o, int is_str, Py_ssize_t *len)
{
    if (!is_str) {
        *len = PyBytes_GET_SIZE(o);
        return PyBytes_AS_STRING(o);
    }
    if (PyUnicode_IS_ASCII(o)) {
        *len = PyUnicode_GET_LENGTH(o);
        return (const char *)PyUnicode_DATA(o);
    }
    return PyUnicode_AsUTF8AndSize(o, len); /* cached: cannot fail */
}

/* Copies the k items of a chunk into its data buffer (without the GIL: the
 * items are immutable and referenced by many()'s tuple). */
static void chunk_gather(chunk_buffers *b, size_t k)
{
    for (size_t i = 0; i < k; i++)
        memcpy(b->data + b->offsets[i], b->src[i], (size_t)(b->offsets[i + 1] - b->offsets[i]));
}

static pct_result chunk_run(int encode, chunk_buffers *b, size_t k, size_t out_size,
                            const pct_set *set, unsigned flags)
{
    if (encode)
        return pct_encode_batch64(b->data, b->offsets, k, b->out, out_size, b->out_offsets,
                                  b->results, set, flags);
    return pct_decode_batch64(b->data, b->offsets, k, b->out, out_size, b->out_offsets, b->results,
                              set, flags);
}

/* What many() needs to make one item's result. */
typedef struct many_call {
    int encode, is_str, on_error_none;
    int same_if_same_length; /* an output as long as its input is that input */
    int check_split;         /* encoding str with a set that may split a character */
    const pct_set *set;
} many_call;

/* Puts item i's result in list: out[0..len) (r OK) or the failure r; -1
 * with an exception set. */
static int many_item(const many_call *c, PyObject *list, PyObject *o, Py_ssize_t i, pct_result r,
                     const char *in, size_t in_len, const char *out)
{
    const char *detail = NULL;
    if (r.status == PCT_OK && c->check_split) {
        Py_ssize_t at = split_character(in, in_len, c->set);
        if (at >= 0) {
            r = (pct_result){PCT_INVALID_UTF8, (size_t)at};
            detail = split_detail;
        }
    }
    PyObject *item;
    if (r.status != PCT_OK) {
        if (!c->on_error_none) {
            raise_error_detail(r, i, detail);
            return -1;
        }
        item = Py_NewRef(Py_None);
    } else if (c->same_if_same_length && r.count == in_len) {
        item = Py_NewRef(o);
    } else if (c->is_str) {
        item = str_from_utf8(out, r.count, "strict");
    } else {
        item = PyBytes_FromStringAndSize(out, (Py_ssize_t)r.count);
    }
    if (item == NULL)
        return -1;
    PyList_SET_ITEM(list, i, item);
    return 0;
}

/* A long item, alone; -1 with an exception set. */
static int many_big_item(const many_call *c, PyObject *list, PyObject *o, Py_ssize_t i,
                         size_t factor, unsigned flags)
{
    Py_ssize_t len;
    const char *p = item_text(o, c->is_str, &len);
    const size_t cap = factor * (size_t)len;
    /* bytes: written in place into a result made as long as it may need */
    PyObject *obj = c->is_str ? NULL : PyBytes_FromStringAndSize(NULL, (Py_ssize_t)cap);
    char *dst = c->is_str ? PyMem_Malloc(cap) : obj ? PyBytes_AS_STRING(obj) : NULL;
    if (dst == NULL) {
        Py_XDECREF(obj);
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return -1;
    }
    pct_result r;
    RUN_MAYBE_RELEASED(1, r = c->encode ? pct_encode(p, (size_t)len, dst, c->set, flags)
                                        : pct_decode_except(p, (size_t)len, dst, c->set, flags));
    int rc;
    if (obj != NULL && r.status == PCT_OK && !(c->same_if_same_length && r.count == (size_t)len)) {
        /* the result object itself, cut to its length */
        rc = _PyBytes_Resize(&obj, (Py_ssize_t)r.count);
        if (rc == 0) {
            PyList_SET_ITEM(list, i, obj);
            obj = NULL;
        }
    } else {
        rc = many_item(c, list, o, i, r, p, (size_t)len, dst);
    }
    Py_XDECREF(obj);
    if (c->is_str)
        PyMem_Free(dst);
    return rc;
}

/* Checks item i (all bytes or all str, the UTF-8 of a str made) and gives
 * its length; -1 with an exception set. Done as the items are reached, so
 * that each is read once from memory for its chunk. */
static int item_check(const many_call *c, const char *fname, PyObject *o, Py_ssize_t i,
                      Py_ssize_t *len)
{
    if (c->is_str ? !PyUnicode_CheckExact(o) : !PyBytes_CheckExact(o)) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): items must be all bytes or all str (item %zd is %.100s)", fname, i,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    if (c->is_str && !PyUnicode_IS_ASCII(o) && PyUnicode_AsUTF8AndSize(o, len) == NULL)
        return -1;
    item_text(o, c->is_str, len);
    if ((size_t)*len > (size_t)PY_SSIZE_T_MAX / 3) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Runs the batch API over a list or tuple of all-bytes or all-str items. */
static PyObject *many(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int encode)
{
    static const char *const dnames[] = {"items", "flags", "keep", "on_error"};
    static const char *const enames[] = {"items", "set", "flags", "on_error"};
    const char *fname = encode ? "encode_many" : "decode_many";
    PyObject *a[4];
    if (parse_args(args, nargs, kwnames, encode ? enames : dnames, 4, 1, a) < 0)
        return arg_error(fname);
    /* one string is not a sequence of strings (its characters or ints) */
    if (PyUnicode_Check(a[0]) || PyBytes_Check(a[0]) || PyByteArray_Check(a[0])) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): items must be a sequence of bytes or of str, not one %.100s (use %s() "
                     "for one string)",
                     fname, Py_TYPE(a[0])->tp_name, encode ? "encode" : "decode");
        return NULL;
    }
    pct_set storage;
    many_call c = {.encode = encode};
    unsigned flags;
    PyObject *setobj = encode ? a[1] : a[2], *flagobj = encode ? a[2] : a[1];
    if (set_arg(setobj, encode ? "component" : NULL, &storage, &c.set) < 0 ||
        flags_arg(flagobj, &flags) < 0)
        return NULL;
    if (a[3] != NULL) {
        if (PyUnicode_Check(a[3]) && PyUnicode_CompareWithASCIIString(a[3], "none") == 0)
            c.on_error_none = 1;
        else if (!(PyUnicode_Check(a[3]) && PyUnicode_CompareWithASCIIString(a[3], "raise") == 0)) {
            PyErr_Format(PyExc_ValueError, "%s(): on_error is 'raise' or 'none'", fname);
            return NULL;
        }
    }
    /* a tuple: the items cannot change while the GIL is released */
    PyObject *seq = PyTuple_CheckExact(a[0]) ? Py_NewRef(a[0]) : PySequence_Tuple(a[0]);
    if (seq == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s(): items must be a sequence of bytes or of str",
                         fname);
        }
        return NULL;
    }
    const Py_ssize_t n = PyTuple_GET_SIZE(seq);
    PyObject **items = ((PyTupleObject *)seq)->ob_item;
    c.is_str = n > 0 && PyUnicode_CheckExact(items[0]);
    if (c.is_str && !encode && !(flags & PCT_UTF8_REPLACE))
        flags |= PCT_UTF8;
    const size_t factor = encode || (flags & PCT_UTF8_REPLACE) ? 3 : 1;
    c.same_if_same_length = encode ? !(flags & PCT_PLUS) : !(flags & (PCT_PLUS | PCT_UTF8_REPLACE));
    c.check_split = encode && c.is_str && set_splits_characters(c.set);
    PyObject *list = PyList_New(n);
    chunk_buffers *b = list ? chunk_buffers_take() : NULL;
    if (b == NULL)
        goto fail;
    /* flags and set checked once, on no item: a bad one is one error for
     * the call, not one per item */
    b->offsets[0] = 0;
    pct_result r = chunk_run(encode, b, 0, 0, c.set, flags);
    if (r.status != PCT_OK) {
        raise_error(r, -1);
        goto fail;
    }
    Py_ssize_t i = 0;
    while (i < n) {
        Py_ssize_t len;
        if (item_check(&c, fname, items[i], i, &len) < 0)
            goto fail;
        if ((size_t)len >= RELEASE_GIL_BYTES) {
            if (many_big_item(&c, list, items[i], i, factor, flags) < 0)
                goto fail;
            i++;
            continue;
        }
        size_t k = 0, pos = 0;
        while (i + (Py_ssize_t)k < n && k < CHUNK_ITEMS) {
            PyObject *o = items[i + (Py_ssize_t)k];
            if (k > 0 && item_check(&c, fname, o, i + (Py_ssize_t)k, &len) < 0)
                goto fail;
            if (pos + (size_t)len > CHUNK_BYTES || (size_t)len >= RELEASE_GIL_BYTES)
                break;
            const char *p = item_text(o, c.is_str, &len);
            b->src[k] = p;
            pos += (size_t)len;
            b->offsets[++k] = (int64_t)pos;
        }
        RUN_MAYBE_RELEASED(pos >= RELEASE_GIL_BYTES, chunk_gather(b, k);
                           r = chunk_run(encode, b, k, factor * pos, c.set, flags));
        if (r.status != PCT_OK) { /* not for a buffer of the right size */
            raise_error(r, -1);
            goto fail;
        }
        for (size_t j = 0; j < k; j++) {
            const size_t in_off = (size_t)b->offsets[j], out_off = (size_t)b->out_offsets[j];
            if (many_item(&c, list, items[i + (Py_ssize_t)j], i + (Py_ssize_t)j, b->results[j],
                          b->data + in_off, (size_t)b->offsets[j + 1] - in_off,
                          b->out + out_off) < 0)
                goto fail;
        }
        i += (Py_ssize_t)k;
    }
    chunk_buffers_give(b);
    Py_DECREF(seq);
    return list;
fail:
    if (b != NULL)
        chunk_buffers_give(b);
    Py_XDECREF(list);
    Py_DECREF(seq);
    return NULL;
}

PyDoc_STRVAR(decode_many_doc,
             "decode_many($module, /, items, flags=0, keep=None, on_error='raise')\n--\n\n"
             "decode() over a list (or any sequence) of bytes, or of str, through the\n"
             "batch API (pct_decode_batch64, a chunk of items at a time; the GIL is\n"
             "released from 16 KiB of input, so threads on separate lists overlap).\n"
             "One str or bytes is a TypeError (use decode()). on_error='raise' raises\n"
             "pct.Error (with .index) at the first item that fails; 'none' gives None\n"
             "for such an item instead.");

static PyObject *py_decode_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames)
{
    (void)self;
    return many(args, nargs, kwnames, 0);
}

PyDoc_STRVAR(encode_many_doc,
             "encode_many($module, /, items, set='component', flags=0, on_error='raise')\n--\n\n"
             "encode() over a list (or any sequence) of bytes, or of str, through the\n"
             "batch API (pct_encode_batch64), as decode_many. A str item whose result\n"
             "would not be UTF-8 (see encode()) fails with INVALID_UTF8.");

static PyObject *py_encode_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames)
{
    (void)self;
    return many(args, nargs, kwnames, 1);
}

/* ------------------------------------------------------------------------ */
/* Implementations, sets                                                     */
/* ------------------------------------------------------------------------ */

static PyObject *py_implementation(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(pct_implementation());
}

static PyObject *py_implementations(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list != NULL && pct_implementation_name(i) != NULL; i++) {
        PyObject *s = PyUnicode_FromString(pct_implementation_name(i));
        if (s == NULL || PyList_Append(list, s) < 0)
            Py_CLEAR(list);
        Py_XDECREF(s);
    }
    return list;
}

static PyObject *py_use_implementation(PyObject *self, PyObject *name)
{
    (void)self;
    const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    if (s == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "use_implementation() expects a str");
        return NULL;
    }
    if (pct_use_implementation(s) != 0) {
        PyErr_Format(PyExc_ValueError, "implementation %R unknown or not runnable here", name);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *py_set_bits(PyObject *self, PyObject *name)
{
    (void)self;
    pct_set set;
    const pct_set *p;
    if (set_arg(name, NULL, &set, &p) < 0)
        return NULL;
    if (p == NULL)
        pct_set_clear(&set);
    return PyBytes_FromStringAndSize((const char *)set.bits, 32);
}

#define FASTKW(name, doc)                                                                          \
    {                                                                                              \
#name, (PyCFunction)(void (*)(void))py_##name, METH_FASTCALL | METH_KEYWORDS, doc          \
    }

static PyMethodDef methods[] = {
    FASTKW(quote, quote_doc),
    FASTKW(quote_plus, quote_plus_doc),
    FASTKW(quote_from_bytes, quote_from_bytes_doc),
    FASTKW(unquote, unquote_doc),
    FASTKW(unquote_plus, unquote_plus_doc),
    FASTKW(unquote_to_bytes, unquote_to_bytes_doc),
    FASTKW(encode, encode_doc),
    FASTKW(decode, decode_doc),
    FASTKW(normalize, normalize_doc),
    FASTKW(validate, validate_doc),
    FASTKW(normalize_path, normalize_path_doc),
    FASTKW(iri_to_uri, iri_to_uri_doc),
    FASTKW(uri_to_iri, uri_to_iri_doc),
    FASTKW(decode_many, decode_many_doc),
    FASTKW(encode_many, encode_many_doc),
    {"implementation", py_implementation, METH_NOARGS,
     "implementation($module, /)\n--\n\nThe libpct implementation in use (avx2, ...)."},
    {"implementations", py_implementations, METH_NOARGS,
     "implementations($module, /)\n--\n\nThe implementations this CPU runs, best first."},
    {"use_implementation", py_use_implementation, METH_O,
     "use_implementation($module, name, /)\n--\n\nSwitches every later call to that "
     "implementation."},
    {"set_bits", py_set_bits, METH_O,
     "set_bits($module, name, /)\n--\n\nThe 32-byte bitmap of a predefined set."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "pct._pct",
    "libpct's C core (see the pct package).",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__pct(void);
PyMODINIT_FUNC PyInit__pct(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    pct_set_fill(&quote_base);
    pct_set_remove_range(&quote_base, 'A', 'Z');
    pct_set_remove_range(&quote_base, 'a', 'z');
    pct_set_remove_range(&quote_base, '0', '9');
    pct_set_remove_chars(&quote_base, "_.-~");
    PyObject *error_dict = Py_BuildValue("{sO}", "report", Py_None);
    if (error_dict == NULL)
        goto fail;
    Error = PyErr_NewExceptionWithDoc(
        "pct.Error",
        "A libpct operation failed: .status (pct.INVALID_ESCAPE, ...), .offset (input\n"
        "offset of the offending byte; of its UTF-8 for a str), .index (the item, in a\n"
        "batch; else None), .report (normalize_path's PathReport for REJECTED_PATH;\n"
        "else None).",
        PyExc_ValueError, error_dict);
    Py_DECREF(error_dict);
    if (Error == NULL || PyModule_AddObjectRef(m, "Error", Error) < 0)
        goto fail;
    static PyStructSequence_Field report_fields[] = {
        {"changes", "what normalization did: names as `pct path --report` writes them"},
        {"first_change", "offset of the first token changed or removed (len(data) if none)"},
        {"bits", "the same as PATH_DID_* bits"},
        {NULL, NULL},
    };
    static PyStructSequence_Desc report_desc = {
        "pct.PathReport",
        "What normalize_path(..., report=True) did (pct_path_report).",
        report_fields,
        3,
    };
    PathReport = PyStructSequence_NewType(&report_desc);
    if (PathReport == NULL || PyModule_AddObjectRef(m, "PathReport", (PyObject *)PathReport) < 0)
        goto fail;
    static const struct {
        const char *name;
        long value;
    } consts[] = {
        {"PLUS", PCT_PLUS},
        {"STRICT", PCT_STRICT},
        {"UTF8", PCT_UTF8},
        {"KEEP_ESCAPES", PCT_KEEP_ESCAPES},
        {"PERCENT_U", PCT_PERCENT_U},
        {"UTF8_REPLACE", PCT_UTF8_REPLACE},
        {"OK", PCT_OK},
        {"INVALID_ESCAPE", PCT_INVALID_ESCAPE},
        {"INVALID_UTF8", PCT_INVALID_UTF8},
        {"UNESCAPED_BYTE", PCT_UNESCAPED_BYTE},
        {"INVALID_ARGUMENT", PCT_INVALID_ARGUMENT},
        {"REJECTED_BYTE", PCT_REJECTED_BYTE},
        {"REJECTED_PATH", PCT_REJECTED_PATH},
        {"NO_SPACE", PCT_NO_SPACE},
        {"PATH_DID_DECODE_UNRESERVED", PCT_PATH_DID_DECODE_UNRESERVED},
        {"PATH_DID_DECODE", PCT_PATH_DID_DECODE},
        {"PATH_DID_UPPERCASE_HEX", PCT_PATH_DID_UPPERCASE_HEX},
        {"PATH_DID_REMOVE_DOTS", PCT_PATH_DID_REMOVE_DOTS},
        {"PATH_DID_SEE_ENCODED_DOTS", PCT_PATH_DID_SEE_ENCODED_DOTS},
        {"PATH_DID_CLAMP_AT_ROOT", PCT_PATH_DID_CLAMP_AT_ROOT},
        {"PATH_DID_MERGE_SLASHES", PCT_PATH_DID_MERGE_SLASHES},
        {"PATH_DID_BACKSLASH", PCT_PATH_DID_BACKSLASH},
        {"PATH_DID_SEE_PARAMS", PCT_PATH_DID_SEE_PARAMS},
    };
    for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
        if (PyModule_AddIntConstant(m, consts[i].name, consts[i].value) < 0)
            goto fail;
    if (PyModule_AddStringConstant(m, "libpct_version", pct_version()) < 0)
        goto fail;
    if (pct_logs_init(m) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
