/* utf8_str.h - str objects from UTF-8 bytes, as bytes.decode("utf-8", errors)
 * makes them, faster for the valid text that decoded URLs nearly always are. */
#ifndef PCT_PY_UTF8_STR_H
#define PCT_PY_UTF8_STR_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* The str of s[0..n) decoded as UTF-8 with the error handler `errors`: the
 * same value and exceptions as PyUnicode_DecodeUTF8(s, n, errors). */
PyObject *str_from_utf8(const char *s, size_t n, const char *errors);

#endif /* PCT_PY_UTF8_STR_H */
