/* sets.c - the predefined encode sets and the set builders.
 *
 * Each predefined set is written as a predicate over the byte value b, in the
 * words of its specification, and expanded into its 256-bit table at compile
 * time: nothing is computed at run time and the tables are read-only.
 */
#include <string.h>

#include "pct.h"

/* WHATWG URL Standard, "percent-encoded bytes". */
#define C0_CONTROL(b) ((b) <= 0x1F || (b) >= 0x7F)
#define FRAGMENT(b)                                                                                \
    (C0_CONTROL(b) || (b) == ' ' || (b) == '"' || (b) == '<' || (b) == '>' || (b) == '`')
#define QUERY(b)                                                                                   \
    (C0_CONTROL(b) || (b) == ' ' || (b) == '"' || (b) == '#' || (b) == '<' || (b) == '>')
#define SPECIAL_QUERY(b) (QUERY(b) || (b) == '\'')
#define PATH(b) (QUERY(b) || (b) == '?' || (b) == '^' || (b) == '`' || (b) == '{' || (b) == '}')
#define USERINFO(b)                                                                                \
    (PATH(b) || (b) == '/' || (b) == ':' || (b) == ';' || (b) == '=' || (b) == '@' ||              \
     (b) == '[' || (b) == '\\' || (b) == ']' || (b) == '|')
#define COMPONENT(b)                                                                               \
    (USERINFO(b) || (b) == '$' || (b) == '%' || (b) == '&' || (b) == '+' || (b) == ',')
#define FORM(b)                                                                                    \
    (COMPONENT(b) || (b) == '!' || (b) == '\'' || (b) == '(' || (b) == ')' || (b) == '~')

/* RFC 3986 section 2.3: unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~". */
#define ALNUM(b)                                                                                   \
    (((b) >= 'A' && (b) <= 'Z') || ((b) >= 'a' && (b) <= 'z') || ((b) >= '0' && (b) <= '9'))
#define UNRESERVED(b) (ALNUM(b) || (b) == '-' || (b) == '.' || (b) == '_' || (b) == '~')
#define RFC3986(b) (!UNRESERVED(b))

/* ECMAScript encodeURIComponent / encodeURI: the unescaped sets. */
#define JS_MARK(b) ((b) == '!' || (b) == '\'' || (b) == '(' || (b) == ')' || (b) == '*')
#define JS_RESERVED(b)                                                                             \
    ((b) == ';' || (b) == '/' || (b) == '?' || (b) == ':' || (b) == '@' || (b) == '&' ||           \
     (b) == '=' || (b) == '+' || (b) == '$' || (b) == ',' || (b) == '#')
#define URI_COMPONENT(b) (!(UNRESERVED(b) || JS_MARK(b)))
#define URI(b) (!(UNRESERVED(b) || JS_MARK(b) || JS_RESERVED(b)))

#define BIT(P, b) ((P(b) ? 1u : 0u) << ((b)&7))
#define BYTE(P, k)                                                                                 \
    (uint8_t)(BIT(P, 8 * (k) + 0) | BIT(P, 8 * (k) + 1) | BIT(P, 8 * (k) + 2) |                    \
              BIT(P, 8 * (k) + 3) | BIT(P, 8 * (k) + 4) | BIT(P, 8 * (k) + 5) |                    \
              BIT(P, 8 * (k) + 6) | BIT(P, 8 * (k) + 7))
#define SET(P)                                                                                     \
    {                                                                                              \
        {                                                                                          \
            BYTE(P, 0), BYTE(P, 1), BYTE(P, 2), BYTE(P, 3), BYTE(P, 4), BYTE(P, 5), BYTE(P, 6),    \
                BYTE(P, 7), BYTE(P, 8), BYTE(P, 9), BYTE(P, 10), BYTE(P, 11), BYTE(P, 12),         \
                BYTE(P, 13), BYTE(P, 14), BYTE(P, 15), BYTE(P, 16), BYTE(P, 17), BYTE(P, 18),      \
                BYTE(P, 19), BYTE(P, 20), BYTE(P, 21), BYTE(P, 22), BYTE(P, 23), BYTE(P, 24),      \
                BYTE(P, 25), BYTE(P, 26), BYTE(P, 27), BYTE(P, 28), BYTE(P, 29), BYTE(P, 30),      \
                BYTE(P, 31)                                                                        \
        }                                                                                          \
    }

const pct_set pct_set_c0_control = SET(C0_CONTROL);
const pct_set pct_set_fragment = SET(FRAGMENT);
const pct_set pct_set_query = SET(QUERY);
const pct_set pct_set_special_query = SET(SPECIAL_QUERY);
const pct_set pct_set_path = SET(PATH);
const pct_set pct_set_userinfo = SET(USERINFO);
const pct_set pct_set_component = SET(COMPONENT);
const pct_set pct_set_form = SET(FORM);
const pct_set pct_set_rfc3986 = SET(RFC3986);
const pct_set pct_set_uri = SET(URI);
const pct_set pct_set_uri_component = SET(URI_COMPONENT);

void pct_set_clear(pct_set *set)
{
    memset(set->bits, 0, sizeof set->bits);
}

void pct_set_fill(pct_set *set)
{
    memset(set->bits, 0xFF, sizeof set->bits);
}

void pct_set_add_byte(pct_set *set, unsigned char byte)
{
    set->bits[byte >> 3] |= (uint8_t)(1u << (byte & 7));
}

void pct_set_remove_byte(pct_set *set, unsigned char byte)
{
    set->bits[byte >> 3] &= (uint8_t) ~(1u << (byte & 7));
}

void pct_set_add_chars(pct_set *set, const char *chars)
{
    for (const unsigned char *c = (const unsigned char *)chars; *c; c++)
        pct_set_add_byte(set, *c);
}

void pct_set_remove_chars(pct_set *set, const char *chars)
{
    for (const unsigned char *c = (const unsigned char *)chars; *c; c++)
        pct_set_remove_byte(set, *c);
}

void pct_set_add_range(pct_set *set, unsigned char first, unsigned char last)
{
    for (unsigned b = first; b <= last; b++)
        pct_set_add_byte(set, (unsigned char)b);
}

void pct_set_remove_range(pct_set *set, unsigned char first, unsigned char last)
{
    for (unsigned b = first; b <= last; b++)
        pct_set_remove_byte(set, (unsigned char)b);
}

int pct_set_contains(const pct_set *set, unsigned char byte)
{
    return (set->bits[byte >> 3] >> (byte & 7)) & 1;
}

/* Names compare with '-' and '_' as the same character. */
static int same_name(const char *a, const char *b)
{
    for (;; a++, b++) {
        char ca = *a == '_' ? '-' : *a, cb = *b == '_' ? '-' : *b;
        if (ca != cb)
            return 0;
        if (ca == '\0')
            return 1;
    }
}

const pct_set *pct_set_by_name(const char *name)
{
    static const struct {
        const char *name;
        const pct_set *set;
    } names[] = {
        {"c0-control", &pct_set_c0_control},
        {"fragment", &pct_set_fragment},
        {"query", &pct_set_query},
        {"special-query", &pct_set_special_query},
        {"path", &pct_set_path},
        {"userinfo", &pct_set_userinfo},
        {"component", &pct_set_component},
        {"form", &pct_set_form},
        {"rfc3986", &pct_set_rfc3986},
        {"uri", &pct_set_uri},
        {"uri-component", &pct_set_uri_component},
    };
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (same_name(name, names[i].name))
            return names[i].set;
    return NULL;
}
