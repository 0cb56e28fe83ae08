/* log_time.c - access log times as ISO 8601. */
#include <stdint.h>
#include <string.h>

#include "log_time.h"

static int digits_at(struct span t, size_t at, size_t count)
{
    if (at + count > t.n)
        return -1;
    int v = 0;
    for (size_t i = at; i < at + count; i++) {
        if (t.p[i] < '0' || t.p[i] > '9')
            return -1;
        v = v * 10 + (t.p[i] - '0');
    }
    return v;
}

/* A real calendar date and time of day: the day exists in its month (leap
 * years too), hours 0-23, minutes 0-59, seconds 0-60 (a leap second). */
static inline int valid_date_time(int y, int mo, int d, int h, int mi, int sec)
{
    static const unsigned char month_days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 ||
        sec > 60)
        return 0;
    if (d <= 28)
        return 1; /* every month has 28 days: no leap year arithmetic */
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return d <= month_days[mo - 1] + (mo == 2 && leap);
}

/* A UTC offset's hours and minutes as RFC 3339 allows them: 00-23, 00-59. */
static int valid_offset(int h, int mi)
{
    return h >= 0 && h <= 23 && mi >= 0 && mi <= 59;
}

/* v as count decimal digits at o (snprintf is slow for every line). */
static char *put_digits(char *o, int v, int count)
{
    for (int i = count - 1; i >= 0; i--, v /= 10)
        o[i] = (char)('0' + v % 10);
    return o + count;
}

static char *put_text(char *o, const char *p, size_t n)
{
    memcpy(o, p, n);
    return o + n;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's). */
static void civil_from_days(int64_t z, int *y, int *m, int *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = (int)(yoe + era * 400 + (*m <= 2));
}

static size_t from_unix(struct span t, char *out)
{
    size_t i = 0;
    int64_t secs = 0;
    for (; i < t.n && t.p[i] >= '0' && t.p[i] <= '9' && i < 12; i++)
        secs = secs * 10 + (t.p[i] - '0');
    if (i == 0 || (i < t.n && t.p[i] != '.'))
        return 0;
    size_t frac = i < t.n ? i + 1 : t.n;
    size_t frac_n = t.n - frac;
    if (frac_n > 9 || digits_at(t, frac, frac_n) < 0)
        return 0;
    int y, m, d;
    civil_from_days(secs / 86400, &y, &m, &d);
    int sod = (int)(secs % 86400);
    if (y > 9999)
        return 0;
    char *o = out;
    o = put_digits(o, y, 4);
    *o++ = '-';
    o = put_digits(o, m, 2);
    *o++ = '-';
    o = put_digits(o, d, 2);
    *o++ = 'T';
    o = put_digits(o, sod / 3600, 2);
    *o++ = ':';
    o = put_digits(o, sod / 60 % 60, 2);
    *o++ = ':';
    o = put_digits(o, sod % 60, 2);
    if (frac_n > 0) {
        *o++ = '.';
        o = put_text(o, t.p + frac, frac_n);
    }
    *o++ = 'Z';
    return (size_t)(o - out);
}

static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";

/* The time of nearly every access log line, "10/Oct/2000:13:55:36 -0700",
 * checked and rearranged without loops over its text: it is converted on
 * every line of JSON output. Returns 0 if t is not exactly that. */
/* 1 if the bytes of the 8 at p that sel marks (0x80 in each) are digits. */
static int digits_where(const char *p, uint64_t sel)
{
    return (swar_nondigits(p) & sel) == 0;
}

/* Byte k of an 8-byte load (k counted from the load's first byte). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BYTE_K(k) (0x80ULL << (8 * (7 - (k))))
#else
#define BYTE_K(k) (0x80ULL << (8 * (k)))
#endif

/* "HH:MM:SS", a time of day from_clf accepts. */
static int clf_time_of_day(const char *p)
{
    int ok =
        digits_where(p, BYTE_K(0) | BYTE_K(1) | BYTE_K(3) | BYTE_K(4) | BYTE_K(6) | BYTE_K(7)) &
        (p[2] == ':') & (p[5] == ':');
#define TWO(i) ((p[i] - '0') * 10 + (p[(i) + 1] - '0'))
    return ok && TWO(0) <= 23 && TWO(3) <= 59 && TWO(6) <= 60;
#undef TWO
}

static size_t from_clf(struct span t, char *out)
{
    if (t.n != 26)
        return 0;
    /* the date's and the zone's digits at 0 1 7 | 8 9 10 | 22 23 24 25;
     * the time of day (12..19) is clf_time_of_day's */
    int ok = digits_where(t.p, BYTE_K(0) | BYTE_K(1) | BYTE_K(7)) &
             digits_where(t.p + 8, BYTE_K(0) | BYTE_K(1) | BYTE_K(2)) &
             digits_where(t.p + 18, BYTE_K(4) | BYTE_K(5) | BYTE_K(6) | BYTE_K(7)) &
             (t.p[2] == '/') & (t.p[6] == '/') & (t.p[11] == ':') & (t.p[20] == ' ') &
             ((t.p[21] == '+') | (t.p[21] == '-')) & clf_time_of_day(t.p + 12);
    /* The month: its second and third letters summed pick its slot (the
     * twelve sums differ in their low 5 bits), then its name is compared. */
    static const unsigned char month_at[32] = {0, 7, 4, 6, 0, 11, 0, 2,  12, 0, 0, 0, 0, 0, 0, 1,
                                               0, 0, 0, 3, 0, 9,  0, 10, 0,  0, 5, 0, 8, 0, 0, 0};
    int month = month_at[((unsigned char)t.p[4] + (unsigned char)t.p[5]) & 31];
    const char *name = months + 3 * (month > 0 ? month - 1 : 0);
    ok &= (name[0] == t.p[3]) & (name[1] == t.p[4]) & (name[2] == t.p[5]);
    if (!ok || month == 0)
        return 0;
        /* the digits are checked: their values without loops */
#define TWO(i) ((t.p[i] - '0') * 10 + (t.p[(i) + 1] - '0'))
    const int day = TWO(0);
    if ((day == 0) | (day > 31) | (TWO(22) > 23) | (TWO(24) > 59))
        return 0;
    if (day > 28 && !valid_date_time(TWO(7) * 100 + TWO(9), month, day, 0, 0, 0))
        return 0;
#undef TWO
    char *o = put_text(out, t.p + 7, 4); /* 2000-10-10T13:55:36-07:00 */
    o[0] = '-';
    o[1] = (char)('0' + month / 10);
    o[2] = (char)('0' + month % 10);
    o[3] = '-';
    o[4] = t.p[0];
    o[5] = t.p[1];
    o[6] = 'T';
    o = put_text(o + 7, t.p + 12, 8);
    o = put_text(o, t.p + 21, 3);
    *o++ = ':';
    o = put_text(o, t.p + 24, 2);
    return (size_t)(o - out);
}

/* YYYY-MM-DDTHH:MM:SS[.digits][Z|+HH:MM|-HH:MM], a real date and time. */
static int iso_valid(struct span t)
{
    if (t.n < 19 || t.p[4] != '-' || t.p[7] != '-' || t.p[10] != 'T' || t.p[13] != ':' ||
        t.p[16] != ':' ||
        !valid_date_time(digits_at(t, 0, 4), digits_at(t, 5, 2), digits_at(t, 8, 2),
                         digits_at(t, 11, 2), digits_at(t, 14, 2), digits_at(t, 17, 2)))
        return 0;
    size_t i = 19;
    if (i < t.n && t.p[i] == '.') {
        size_t digits = ++i;
        while (i < t.n && t.p[i] >= '0' && t.p[i] <= '9')
            i++;
        if (i == digits)
            return 0;
    }
    if (i == t.n)
        return 1;
    if (t.p[i] == 'Z')
        return i + 1 == t.n;
    return (t.p[i] == '+' || t.p[i] == '-') && t.n - i == 6 && t.p[i + 3] == ':' &&
           valid_offset(digits_at(t, i + 1, 2), digits_at(t, i + 4, 2));
}

size_t log_time_iso(struct span date, struct span t, char *out)
{
    size_t clf = date.n == 0 ? from_clf(t, out) : 0;
    if (clf > 0)
        return clf;
    if (date.n > 0) { /* W3C: 2026-03-14 and 06:00:00, UTC */
        if (date.n != 10 || digits_at(date, 0, 4) < 0 || date.p[4] != '-' ||
            digits_at(date, 5, 2) < 0 || date.p[7] != '-' || digits_at(date, 8, 2) < 0 || t.n < 8 ||
            t.n > 20 || t.p[2] != ':' || t.p[5] != ':' || (t.n > 8 && t.p[8] != '.') ||
            !valid_date_time(digits_at(date, 0, 4), digits_at(date, 5, 2), digits_at(date, 8, 2),
                             digits_at(t, 0, 2), digits_at(t, 3, 2), digits_at(t, 6, 2)))
            return 0;
        for (size_t i = 9; i < t.n; i++)
            if (t.p[i] < '0' || t.p[i] > '9')
                return 0;
        char *o = put_text(out, date.p, 10);
        *o++ = 'T';
        o = put_text(o, t.p, t.n);
        *o++ = 'Z';
        return (size_t)(o - out);
    }
    if (t.n >= 20 && t.n < LOG_ISO_MAX && digits_at(t, 0, 4) >= 0 && t.p[4] == '-' &&
        t.p[10] == 'T') { /* already ISO 8601: checked, copied */
        if (!iso_valid(t))
            return 0;
        memcpy(out, t.p, t.n);
        return t.n;
    }
    /* 10/Oct/2000:13:55:36[.655][ -0700] */
    if (t.n >= 20 && t.p[2] == '/' && t.p[6] == '/' && t.p[11] == ':') {
        const char *mon = NULL;
        for (int k = 0; k < 12 && mon == NULL; k++)
            if (memcmp(months + 3 * k, t.p + 3, 3) == 0)
                mon = months + 3 * k;
        int day = digits_at(t, 0, 2), year = digits_at(t, 7, 4);
        if (mon == NULL || day < 0 || year < 0 || digits_at(t, 12, 2) < 0 ||
            digits_at(t, 15, 2) < 0 || digits_at(t, 18, 2) < 0 || t.p[14] != ':' || t.p[17] != ':')
            return 0;
        size_t i = 20, ms = 0;
        if (i < t.n && t.p[i] == '.')
            for (i++, ms = i; i < t.n && t.p[i] >= '0' && t.p[i] <= '9';)
                i++;
        int zone = t.n - i == 6 && t.p[i] == ' ' && (t.p[i + 1] == '+' || t.p[i + 1] == '-') &&
                   digits_at(t, i + 2, 4) >= 0;
        if ((!zone && i != t.n) ||
            !valid_date_time(year, (int)((mon - months) / 3 + 1), day, digits_at(t, 12, 2),
                             digits_at(t, 15, 2), digits_at(t, 18, 2)) ||
            (zone && !valid_offset(digits_at(t, i + 2, 2), digits_at(t, i + 4, 2))))
            return 0;
        char *o = put_digits(out, year, 4);
        *o++ = '-';
        o = put_digits(o, (int)((mon - months) / 3 + 1), 2);
        *o++ = '-';
        o = put_digits(o, day, 2);
        *o++ = 'T';
        o = put_text(o, t.p + 12, 8);
        if (ms > 0) {
            *o++ = '.';
            o = put_text(o, t.p + ms, i - ms > 9 ? 9 : i - ms);
        }
        if (zone) {
            o = put_text(o, t.p + i + 1, 3);
            *o++ = ':';
            o = put_text(o, t.p + i + 4, 2);
        }
        return (size_t)(o - out);
    }
    return from_unix(t, out);
}

size_t log_time_iso_memo(struct log_time_memo *m, struct span date, struct span t, char *out)
{
    if (date.n > 0 || t.n != 26)
        return log_time_iso(date, t, out);
    /* "10/Oct/2000:" and " -0700" as last time: valid, and so is the ISO
     * text made from them; the time of day is the only news. */
    if (m->set && memcmp(t.p, m->clf, 12) == 0 && memcmp(t.p + 20, m->clf + 20, 6) == 0 &&
        clf_time_of_day(t.p + 12)) {
        memcpy(out, m->iso, 25);
        memcpy(out + 11, t.p + 12, 8); /* 2000-10-10T13:55:36-07:00 */
        return 25;
    }
    size_t n = from_clf(t, out);
    if (n == 0)
        return log_time_iso(date, t, out);
    memcpy(m->clf, t.p, 26);
    memcpy(m->iso, out, 25);
    m->set = 1;
    return n;
}
