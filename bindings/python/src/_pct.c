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

/* Raises pct.Error for a failed call; index >= 0 for a batch item. */
static PyObject *raise_error(pct_result r, Py_ssize_t index)
{
    PyObject *msg;
    if (index >= 0)
        msg = PyUnicode_FromFormat("%s at offset %zu of item %zd", pct_status_string(r.status),
                                   r.count, index);
    else
        msg = PyUnicode_FromFormat("%s at offset %zu", pct_status_string(r.status), r.count);
    if (msg == NULL)
        return NULL;
    PyObject *exc = PyObject_CallOneArg(Error, msg);
    Py_DECREF(msg);
    if (exc == NULL)
        return NULL;
    PyObject *status = PyLong_FromLong((long)r.status);
    PyObject *offset = PyLong_FromSize_t(r.count);
    PyObject *idx = index >= 0 ? PyLong_FromSsize_t(index) : Py_NewRef(Py_None);
    if (status && offset && idx && PyObject_SetAttrString(exc, "status", status) == 0 &&
        PyObject_SetAttrString(exc, "offset", offset) == 0 &&
        PyObject_SetAttrString(exc, "index", idx) == 0)
        PyErr_SetObject(Error, exc);
    Py_XDECREF(status);
    Py_XDECREF(offset);
    Py_XDECREF(idx);
    Py_DECREF(exc);
    return NULL;
}

/* A scratch buffer: on the stack when small. */
typedef struct scratch {
    char *p;
    char stack[STACK_BYTES];
} scratch;

static char *scratch_get(scratch *s, size_t n)
{
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
    if (s->p != NULL && s->p != s->stack)
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
        piece = decode_run(buf, (size_t)(j - i), encoding, errors, 0, 0);
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
    PyObject *out = r.status == PCT_OK ? output_make(in, buf, r.count) : raise_error(r, -1);
    scratch_free(s);
    input_release(in);
    return out;
}

/* A scratch buffer of n bytes for an operation on in, or NULL (MemoryError
 * set, the input released). */
static char *op_buffer(input *in, scratch *s, size_t n)
{
    char *buf = scratch_get(s, n);
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
             "PLUS, KEEP_ESCAPES, UTF8. Raises pct.Error.");

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
    return op_finish(&in, &s, buf, do_encode(in.p, in.len, buf, set, flags, in.immutable));
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
    return op_finish(&in, &s, buf, pct_normalize(in.p, in.len, buf, flags));
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
    pct_result r = pct_validate(in.p, in.len, set, flags);
    input_release(&in);
    if (r.status != PCT_OK)
        return raise_error(r, -1);
    return PyLong_FromSize_t(r.count);
}

PyDoc_STRVAR(normalize_path_doc,
             "normalize_path($module, /, data, policy='default')\n--\n\n"
             "pct_normalize_path: the path of a request target normalized under a policy\n"
             "('default', 'nginx', 'envoy', 'apache'): escapes, dot segments, slashes.\n"
             "A str input must decode to UTF-8 (PCT_PATH_UTF8). Raises pct.Error.");

static PyObject *py_normalize_path(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = {"data", "policy"};
    PyObject *a[2];
    input in;
    if (parse_args(args, nargs, kwnames, names, 2, 1, a) < 0)
        return arg_error("normalize_path");
    pct_path_policy policy = pct_path_policy_default;
    if (a[1] != NULL && a[1] != Py_None) {
        const char *name = PyUnicode_Check(a[1]) ? PyUnicode_AsUTF8(a[1]) : NULL;
        const pct_path_policy *p = name ? pct_path_policy_by_name(name) : NULL;
        if (p == NULL) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "unknown policy %R (default, nginx, envoy, apache)",
                             a[1]);
            return NULL;
        }
        policy = *p;
    }
    if (input_get(a[0], &in, "normalize_path") < 0)
        return NULL;
    if (in.is_str)
        policy.options |= PCT_PATH_UTF8;
    scratch s;
    char *buf = op_buffer(&in, &s, in.len);
    if (buf == NULL)
        return NULL;
    return op_finish(&in, &s, buf, pct_normalize_path(in.p, in.len, buf, &policy));
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
    return op_finish(&in, &s, buf, convert(in.p, in.len, buf));
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

/* The batch buffers are kept from call to call (taken while in use, so a
 * call in another thread that runs while this one has released the GIL
 * allocates its own): page faults on fresh multi-megabyte buffers cost more
 * than decoding them on this kind of machine. */
#define CACHE_MAX ((size_t)256 << 20)
static struct {
    void *p;
    size_t size;
} buffer_cache[5];

static void *buffer_take(int slot, size_t size)
{
    if (size == 0)
        size = 1;
    if (buffer_cache[slot].p != NULL && buffer_cache[slot].size >= size) {
        void *p = buffer_cache[slot].p;
        buffer_cache[slot].p = NULL;
        return p;
    }
    return PyMem_Malloc(size);
}

static void buffer_give(int slot, void *p, size_t size)
{
    if (p == NULL)
        return;
    if (size == 0)
        size = 1;
    if (size <= CACHE_MAX && (buffer_cache[slot].p == NULL || buffer_cache[slot].size < size)) {
        PyMem_Free(buffer_cache[slot].p);
        buffer_cache[slot].p = p;
        buffer_cache[slot].size = size;
    } else {
        PyMem_Free(p);
    }
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
    pct_set storage;
    const pct_set *set;
    unsigned flags;
    PyObject *setobj = encode ? a[1] : a[2], *flagobj = encode ? a[2] : a[1];
    if (set_arg(setobj, encode ? "component" : NULL, &storage, &set) < 0 ||
        flags_arg(flagobj, &flags) < 0)
        return NULL;
    int on_error_none = 0;
    if (a[3] != NULL) {
        if (PyUnicode_Check(a[3]) && PyUnicode_CompareWithASCIIString(a[3], "none") == 0)
            on_error_none = 1;
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
    int is_str = n > 0 && PyUnicode_CheckExact(items[0]);
    size_t total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = items[i];
        if (is_str ? !PyUnicode_CheckExact(o) : !PyBytes_CheckExact(o)) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_TypeError,
                         "%s(): items must be all bytes or all str (item %zd is %.100s)", fname, i,
                         Py_TYPE(o)->tp_name);
            return NULL;
        }
        Py_ssize_t len;
        if (is_str) {
            if (PyUnicode_IS_ASCII(o)) {
                len = PyUnicode_GET_LENGTH(o);
            } else if (PyUnicode_AsUTF8AndSize(o, &len) == NULL) {
                Py_DECREF(seq);
                return NULL;
            }
        } else {
            len = PyBytes_GET_SIZE(o);
        }
        total += (size_t)len;
    }
    if (is_str && !encode && !(flags & PCT_UTF8_REPLACE))
        flags |= PCT_UTF8;
    const size_t factor = encode || (flags & PCT_UTF8_REPLACE) ? 3 : 1;
    if (total > (size_t)PY_SSIZE_T_MAX / 3) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    const size_t out_size = factor * total;
    const size_t offsets_size = sizeof(int64_t) * (size_t)(n + 1);
    const size_t results_size = sizeof(pct_result) * (size_t)n;
    char *data = buffer_take(0, total);
    char *out = buffer_take(1, out_size);
    int64_t *offsets = buffer_take(2, offsets_size);
    int64_t *out_offsets = buffer_take(3, offsets_size);
    pct_result *results = buffer_take(4, results_size);
    PyObject *list = NULL;
    if (!data || !out || !offsets || !out_offsets || !results) {
        PyErr_NoMemory();
        goto done;
    }
    size_t pos = 0;
    offsets[0] = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = items[i];
        const char *p;
        Py_ssize_t len;
        if (!is_str) {
            p = PyBytes_AS_STRING(o);
            len = PyBytes_GET_SIZE(o);
        } else if (PyUnicode_IS_ASCII(o)) {
            p = (const char *)PyUnicode_DATA(o);
            len = PyUnicode_GET_LENGTH(o);
        } else {
            p = PyUnicode_AsUTF8AndSize(o, &len); /* cached above */
        }
        memcpy(data + pos, p, (size_t)len);
        pos += (size_t)len;
        offsets[i + 1] = (int64_t)pos;
    }
    pct_result r;
    if (total >= RELEASE_GIL_BYTES) {
        Py_BEGIN_ALLOW_THREADS r = encode
                                       ? pct_encode_batch64(data, offsets, (size_t)n, out, out_size,
                                                            out_offsets, results, set, flags)
                                       : pct_decode_batch64(data, offsets, (size_t)n, out, out_size,
                                                            out_offsets, results, set, flags);
        Py_END_ALLOW_THREADS
    } else {
        r = encode ? pct_encode_batch64(data, offsets, (size_t)n, out, out_size, out_offsets,
                                        results, set, flags)
                   : pct_decode_batch64(data, offsets, (size_t)n, out, out_size, out_offsets,
                                        results, set, flags);
    }
    if (r.status != PCT_OK) {
        raise_error(r, -1);
        goto done;
    }
    /* an output equal to its input can be the input object itself */
    const int same_if_same_length =
        encode ? !(flags & PCT_PLUS) : !(flags & (PCT_PLUS | PCT_UTF8_REPLACE));
    list = PyList_New(n);
    if (list == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item;
        if (results[i].status != PCT_OK) {
            if (!on_error_none) {
                Py_CLEAR(list);
                raise_error(results[i], i);
                goto done;
            }
            item = Py_NewRef(Py_None);
        } else {
            const size_t o = (size_t)out_offsets[i], len = (size_t)(out_offsets[i + 1] - o);
            if (same_if_same_length && len == (size_t)(offsets[i + 1] - offsets[i]))
                item = Py_NewRef(items[i]);
            else if (is_str)
                item = PyUnicode_DecodeUTF8(out + o, (Py_ssize_t)len, "strict");
            else
                item = PyBytes_FromStringAndSize(out + o, (Py_ssize_t)len);
            if (item == NULL) {
                Py_CLEAR(list);
                goto done;
            }
        }
        PyList_SET_ITEM(list, i, item);
    }
done:
    buffer_give(0, data, total);
    buffer_give(1, out, out_size);
    buffer_give(2, offsets, offsets_size);
    buffer_give(3, out_offsets, offsets_size);
    buffer_give(4, results, results_size);
    Py_DECREF(seq);
    return list;
}

PyDoc_STRVAR(decode_many_doc,
             "decode_many($module, /, items, flags=0, keep=None, on_error='raise')\n--\n\n"
             "decode() over a list of bytes (or of str) in one call of the batch API\n"
             "(pct_decode_batch64). on_error='none' gives None for an item that fails\n"
             "instead of raising pct.Error (with .index).");

static PyObject *py_decode_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames)
{
    (void)self;
    return many(args, nargs, kwnames, 0);
}

PyDoc_STRVAR(encode_many_doc,
             "encode_many($module, /, items, set='component', flags=0, on_error='raise')\n--\n\n"
             "encode() over a list of bytes (or of str) in one call of the batch API\n"
             "(pct_encode_batch64).");

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
    Error = PyErr_NewExceptionWithDoc(
        "pct.Error",
        "A libpct operation failed: .status (pct.INVALID_ESCAPE, ...), .offset (input\n"
        "offset of the offending byte), .index (the item, in a batch; else None).",
        PyExc_ValueError, NULL);
    if (Error == NULL || PyModule_AddObjectRef(m, "Error", Error) < 0)
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
