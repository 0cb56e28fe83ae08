/* json_strict.c - the strict JSON checker of json_strict.h: a recursive
 * descent parser that keeps each object's member names (unescaped) to find
 * repeated ones. */
#include "json_strict.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct parser {
    const unsigned char *s;
    size_t n, i;
    const char *error;
    size_t at;
};

static int fail(struct parser *p, const char *error)
{
    if (p->error == NULL) {
        p->error = error;
        p->at = p->i;
    }
    return -1;
}

static void skip_space(struct parser *p)
{
    while (p->i < p->n &&
           (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r'))
        p->i++;
}

/* A name, unescaped, as UTF-8: what repeated names are compared by. */
struct name {
    char *text;
    size_t len, cap;
};

static int name_add(struct name *nm, const char *b, size_t k)
{
    if (nm == NULL)
        return 0;
    if (nm->len + k > nm->cap) {
        size_t cap = nm->cap ? 2 * nm->cap : 32;
        while (cap < nm->len + k)
            cap *= 2;
        char *t = realloc(nm->text, cap);
        if (t == NULL)
            abort();
        nm->text = t;
        nm->cap = cap;
    }
    memcpy(nm->text + nm->len, b, k);
    nm->len += k;
    return 0;
}

static int hex4(struct parser *p, unsigned *v)
{
    if (p->n - p->i < 4)
        return fail(p, "\\u escape cut short");
    *v = 0;
    for (int k = 0; k < 4; k++) {
        unsigned c = p->s[p->i + (size_t)k], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return fail(p, "\\u escape with a non-hex digit");
        *v = *v << 4 | d;
    }
    p->i += 4;
    return 0;
}

static size_t utf8_put(char *b, unsigned c)
{
    if (c < 0x80) {
        b[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        b[0] = (char)(0xC0 | c >> 6);
        b[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        b[0] = (char)(0xE0 | c >> 12);
        b[1] = (char)(0x80 | (c >> 6 & 0x3F));
        b[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    b[0] = (char)(0xF0 | c >> 18);
    b[1] = (char)(0x80 | (c >> 12 & 0x3F));
    b[2] = (char)(0x80 | (c >> 6 & 0x3F));
    b[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

/* The length of the valid UTF-8 sequence at s[i] (a lead byte >= 0x80), or
 * 0 (Unicode's table 3-7: no overlong form, no surrogate, <= U+10FFFF). */
static size_t utf8_valid(const unsigned char *s, size_t n, size_t i)
{
    unsigned c = s[i];
    size_t len;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0;
        if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (n - i < len)
        return 0;
    if (s[i + 1] < lo || s[i + 1] > hi)
        return 0;
    for (size_t k = 2; k < len; k++)
        if (s[i + k] < 0x80 || s[i + k] > 0xBF)
            return 0;
    return len;
}

/* A string at p->i (its opening quote); its text unescaped into nm (NULL:
 * not kept). */
static int string(struct parser *p, struct name *nm)
{
    p->i++;
    for (;;) {
        if (p->i >= p->n)
            return fail(p, "unterminated string");
        unsigned char c = p->s[p->i];
        if (c == '"') {
            p->i++;
            return 0;
        }
        if (c < 0x20)
            return fail(p, "raw control character in a string");
        if (c >= 0x80) {
            size_t len = utf8_valid(p->s, p->n, p->i);
            if (len == 0)
                return fail(p, "invalid UTF-8 in a string");
            name_add(nm, (const char *)p->s + p->i, len);
            p->i += len;
            continue;
        }
        if (c != '\\') {
            name_add(nm, (const char *)&c, 1);
            p->i++;
            continue;
        }
        if (++p->i >= p->n)
            return fail(p, "unterminated escape");
        char e = (char)p->s[p->i++], out;
        switch (e) {
        case '"':
        case '\\':
        case '/':
            out = e;
            break;
        case 'b':
            out = '\b';
            break;
        case 'f':
            out = '\f';
            break;
        case 'n':
            out = '\n';
            break;
        case 'r':
            out = '\r';
            break;
        case 't':
            out = '\t';
            break;
        case 'u': {
            unsigned u, lo;
            if (hex4(p, &u) != 0)
                return -1;
            if (u >= 0xDC00 && u <= 0xDFFF)
                return fail(p, "\\u escape: a low surrogate without a high one");
            if (u >= 0xD800 && u <= 0xDBFF) {
                if (p->n - p->i < 6 || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u')
                    return fail(p, "\\u escape: a high surrogate without a low one");
                p->i += 2;
                if (hex4(p, &lo) != 0)
                    return -1;
                if (lo < 0xDC00 || lo > 0xDFFF)
                    return fail(p, "\\u escape: a high surrogate without a low one");
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
            }
            char b[4];
            name_add(nm, b, utf8_put(b, u));
            continue;
        }
        default:
            p->i--;
            return fail(p, "invalid escape in a string");
        }
        name_add(nm, &out, 1);
    }
}

static int digits(struct parser *p)
{
    size_t start = p->i;
    while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
        p->i++;
    return p->i > start ? 0 : fail(p, "a number without digits");
}

static int number(struct parser *p)
{
    if (p->s[p->i] == '-')
        p->i++;
    if (p->i < p->n && p->s[p->i] == '0')
        p->i++;
    else if (digits(p) != 0)
        return -1;
    if (p->i < p->n && p->s[p->i] == '.') {
        p->i++;
        if (digits(p) != 0)
            return -1;
    }
    if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
        p->i++;
        if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
            p->i++;
        if (digits(p) != 0)
            return -1;
    }
    return 0;
}

static int literal(struct parser *p, const char *word)
{
    size_t k = strlen(word);
    if (p->n - p->i < k || memcmp(p->s + p->i, word, k) != 0)
        return fail(p, "unexpected character");
    p->i += k;
    return 0;
}

static int value(struct parser *p, int depth);

static int object(struct parser *p, int depth)
{
    struct name *names = NULL;
    size_t count = 0, cap = 0;
    int rc = -1;
    p->i++; /* '{' */
    skip_space(p);
    if (p->i < p->n && p->s[p->i] == '}') {
        p->i++;
        return 0;
    }
    for (;;) {
        skip_space(p);
        if (p->i >= p->n || p->s[p->i] != '"') {
            fail(p, "an object member without a string name");
            break;
        }
        if (count == cap) {
            cap = cap ? 2 * cap : 8;
            names = realloc(names, cap * sizeof *names);
            if (names == NULL)
                abort();
        }
        struct name *nm = &names[count];
        memset(nm, 0, sizeof *nm);
        size_t name_at = p->i;
        count++;
        if (string(p, nm) != 0)
            break;
        for (size_t k = 0; k + 1 < count; k++)
            if (names[k].len == nm->len &&
                (nm->len == 0 || memcmp(names[k].text, nm->text, nm->len) == 0)) {
                p->i = name_at;
                fail(p, "a member name repeated in one object");
                goto out;
            }
        skip_space(p);
        if (p->i >= p->n || p->s[p->i] != ':') {
            fail(p, "':' expected after a member name");
            break;
        }
        p->i++;
        if (value(p, depth + 1) != 0)
            break;
        skip_space(p);
        if (p->i < p->n && p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->i < p->n && p->s[p->i] == '}') {
            p->i++;
            rc = 0;
            break;
        }
        fail(p, "',' or '}' expected in an object");
        break;
    }
out:
    for (size_t k = 0; k < count; k++)
        free(names[k].text);
    free(names);
    return rc;
}

static int array(struct parser *p, int depth)
{
    p->i++; /* '[' */
    skip_space(p);
    if (p->i < p->n && p->s[p->i] == ']') {
        p->i++;
        return 0;
    }
    for (;;) {
        if (value(p, depth + 1) != 0)
            return -1;
        skip_space(p);
        if (p->i < p->n && p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->i < p->n && p->s[p->i] == ']') {
            p->i++;
            return 0;
        }
        return fail(p, "',' or ']' expected in an array");
    }
}

static int value(struct parser *p, int depth)
{
    if (depth > JSON_STRICT_DEPTH)
        return fail(p, "nested too deep");
    skip_space(p);
    if (p->i >= p->n)
        return fail(p, "a value expected");
    switch (p->s[p->i]) {
    case '{':
        return object(p, depth);
    case '[':
        return array(p, depth);
    case '"':
        return string(p, NULL);
    case 't':
        return literal(p, "true");
    case 'f':
        return literal(p, "false");
    case 'n':
        return literal(p, "null");
    default:
        if (p->s[p->i] == '-' || (p->s[p->i] >= '0' && p->s[p->i] <= '9'))
            return number(p);
        return fail(p, "unexpected character");
    }
}

const char *json_strict_object(const char *s, size_t n, size_t *at)
{
    struct parser p = {(const unsigned char *)s, n, 0, NULL, 0};
    skip_space(&p);
    if (p.i >= n || s[p.i] != '{')
        fail(&p, "not a JSON object");
    else if (object(&p, 1) == 0) {
        skip_space(&p);
        if (p.i != n)
            fail(&p, "text after the object");
    }
    *at = p.at;
    return p.error;
}

size_t json_strict_utf8_end(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        if (u[i] < 0x80) {
            i++;
            continue;
        }
        const size_t len = utf8_valid(u, n, i);
        if (len == 0)
            return i;
        i += len;
    }
    return n;
}

const char *json_strict_self_test(void)
{
    static const char *const good[] = {
        "{}",
        " {\"a\":1} ",
        "{\"a\":[1,-0.5e+3,true,false,null,\"x\"],\"b\":{\"a\":{}}}",
        "{\"k\":\"\\u00e9\\ud83d\\ude00 \\\" \\\\ \\/ \\b\\f\\n\\r\\t\"}",
        "{\"\xc3\xa9\":\"\xf0\x9f\x98\x80\xef\xbf\xbd\"}",
        "{\"a\":1,\"A\":2,\"a \":3}",
        "{\"o\":{\"a\":1},\"p\":{\"a\":1}}",
    };
    static const char *const bad[] = {
        "",
        "[]",
        "{\"a\":1,\"a\":2}",
        "{\"path\":1,\"pa\\u0074h\":2}",
        "{\"o\":{\"x\":1,\"y\":2,\"x\":3}}",
        "{\"a\":\"\x01\"}",
        "{\"a\":\"\t\"}",
        "{\"a\":\"\xc0\x80\"}",
        "{\"a\":\"\xed\xa0\x80\"}",
        "{\"a\":\"\xf4\x90\x80\x80\"}",
        "{\"a\":\"\xc3\"}",
        "{\"a\":\"\\ud800\"}",
        "{\"a\":\"\\udc00\"}",
        "{\"a\":\"\\x41\"}",
        "{\"a\":01}",
        "{\"a\":1.}",
        "{\"a\":.5}",
        "{\"a\":+1}",
        "{\"a\":tru}",
        "{\"a\":1,}",
        "{\"a\" 1}",
        "{a:1}",
        "{\"a\":1}x",
        "{\"a\":1}{}",
        "{\"a\":\"x}",
    };
    size_t at;
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        if (json_strict_object(good[i], strlen(good[i]), &at) != NULL)
            return good[i];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (json_strict_object(bad[i], strlen(bad[i]), &at) == NULL)
            return bad[i];
    return NULL;
}
