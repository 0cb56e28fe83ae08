/* pct_oracle_driver.c - runs libpct operations for the differential oracle
 * tests (test_python_oracle.py, js/node_oracle.js).
 *
 * stdin, one command per line:   OP FLAGS SET HEXINPUT
 *   OP     enc | dec | norm | val | len
 *   FLAGS  decimal pct flags
 *   SET    a predefined set name (pct_set_by_name), "x" + 64 hex digits (the
 *          32 bytes of pct_set.bits), or "-" for none (dec: keep = NULL)
 *   HEX    the input bytes in hex, "-" when empty
 * stdout, one line per command:  STATUS COUNT HEXOUTPUT
 *   STATUS the pct_status number; COUNT the result's count; HEXOUTPUT the
 *   bytes written on PCT_OK ("-" when none or on error). For len: 0 LENGTH -.
 * Buffers are sized exactly as the header documents.
 * Options: --list prints the implementations; --impl NAME uses that one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pct.h"

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decodes hex text of length n into out; returns the byte count or -1. */
static long unhex(const char *s, size_t n, unsigned char *out)
{
    size_t i;
    if (n == 1 && s[0] == '-')
        return 0;
    if (n % 2)
        return -1;
    for (i = 0; i < n; i += 2) {
        int a = hexval(s[i]), b = hexval(s[i + 1]);
        if (a < 0 || b < 0)
            return -1;
        out[i / 2] = (unsigned char)(a * 16 + b);
    }
    return (long)(n / 2);
}

static void put_hex(const unsigned char *p, size_t n)
{
    static const char hexd[] = "0123456789abcdef";
    size_t i;
    if (n == 0) {
        fputc('-', stdout);
        return;
    }
    for (i = 0; i < n; i++) {
        fputc(hexd[p[i] >> 4], stdout);
        fputc(hexd[p[i] & 15], stdout);
    }
}

static char *read_stdin(size_t *len)
{
    size_t cap = 1 << 16, n = 0, got;
    char *buf = (char *)malloc(cap + 1);
    while (buf && (got = fread(buf + n, 1, cap - n, stdin)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = (char *)realloc(buf, 2 * cap + 1);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
    }
    if (buf)
        buf[n] = 0;
    *len = n;
    return buf;
}

static int run(char *line)
{
    char *op = strtok(line, " "), *fl = strtok(NULL, " "), *setname = strtok(NULL, " ");
    char *hex = strtok(NULL, " \r");
    unsigned flags;
    pct_set custom;
    const pct_set *set = NULL;
    unsigned char *in, *out = NULL;
    long n;
    pct_result r;

    if (!op || !fl || !setname || !hex)
        return -1;
    flags = (unsigned)strtoul(fl, NULL, 10);
    if (setname[0] == 'x' && strlen(setname) == 65) {
        if (unhex(setname + 1, 64, custom.bits) != 32)
            return -1;
        set = &custom;
    } else if (strcmp(setname, "-") != 0) {
        set = pct_set_by_name(setname);
        if (!set)
            return -1;
    }
    in = (unsigned char *)malloc(strlen(hex) / 2 + 1);
    if (!in || (n = unhex(hex, strlen(hex), in)) < 0) {
        free(in);
        return -1;
    }
    if (strcmp(op, "len") == 0) {
        if (!set)
            return free(in), -1;
        printf("0 %zu -\n", pct_encode_length((const char *)in, (size_t)n, set, flags));
        free(in);
        return 0;
    }
    if (strcmp(op, "enc") == 0) {
        if (!set)
            return free(in), -1;
        out = (unsigned char *)xmalloc(pct_encode_length((const char *)in, (size_t)n, set, flags));
        r = pct_encode((const char *)in, (size_t)n, (char *)out, set, flags);
    } else if (strcmp(op, "dec") == 0) {
        out = (unsigned char *)xmalloc((flags & PCT_UTF8_REPLACE) ? 3 * (size_t)n : (size_t)n);
        r = pct_decode_except((const char *)in, (size_t)n, (char *)out, set, flags);
    } else if (strcmp(op, "norm") == 0) {
        out = (unsigned char *)xmalloc((size_t)n);
        r = pct_normalize((const char *)in, (size_t)n, (char *)out, flags);
    } else if (strcmp(op, "val") == 0) {
        if (!set)
            return free(in), -1;
        r = pct_validate((const char *)in, (size_t)n, set, flags);
    } else {
        free(in);
        return -1;
    }
    printf("%d %zu ", (int)r.status, r.count);
    put_hex(out, (r.status == PCT_OK && out) ? r.count : 0);
    fputc('\n', stdout);
    free(in);
    free(out);
    return 0;
}

int main(int argc, char **argv)
{
    size_t len, lines = 0;
    char *buf, *line, *next;
    if (argc > 1 && strcmp(argv[1], "--list") == 0) { /* the implementations, one a line */
        size_t i;
        for (i = 0; pct_implementation_name(i); i++)
            printf("%s\n", pct_implementation_name(i));
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--impl") == 0 && argc > 2) {
        if (pct_use_implementation(argv[2]) != 0) {
            fprintf(stderr, "pct_oracle_driver: no implementation %s\n", argv[2]);
            return 2;
        }
    }
    buf = read_stdin(&len);
    if (!buf) {
        fprintf(stderr, "pct_oracle_driver: out of memory\n");
        return 2;
    }
    for (line = buf; line < buf + len; line = next) {
        char *nl = strchr(line, '\n');
        next = nl ? nl + 1 : buf + len;
        if (nl)
            *nl = 0;
        if (!*line)
            continue;
        lines++;
        if (run(line) != 0) {
            fprintf(stderr, "pct_oracle_driver: bad command on line %zu\n", lines);
            return 2;
        }
    }
    free(buf);
    fflush(stdout);
    return 0;
}
