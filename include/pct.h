/* pct.h - libpct: percent-encoding and percent-decoding (URL encoding)
 *
 * One header, C99 and C++. No allocation, no global state to set up, every
 * function thread-safe. Buffers are the caller's; no function reads or writes
 * outside the ranges it is given. A NULL pointer is allowed wherever its length
 * is 0.
 *
 * Results: functions that can fail return a pct_result. On PCT_OK, count is the
 * number of bytes written to dst (pct_validate: the number pct_decode would
 * write); the bytes of dst past count, within its documented size, may have
 * been overwritten (kernels store whole vectors where there is room).
 * Otherwise count is the input offset of the first offending byte; the
 * contents of dst are then unspecified (but nothing beyond its documented size
 * is touched).
 *
 * Definitions of every set and mode, with their sources (WHATWG URL Standard,
 * RFC 3986/3987, ECMAScript), are in the README.
 */
#ifndef PCT_H
#define PCT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PCT_VERSION_MAJOR 0
#define PCT_VERSION_MINOR 2
#define PCT_VERSION_PATCH 0
#define PCT_VERSION_STRING "0.2.0"
/* Compare with PCT_VERSION_NUMBER >= PCT_MAKE_VERSION(0, 1, 0). */
#define PCT_MAKE_VERSION(major, minor, patch) ((major)*10000L + (minor)*100L + (patch))
#define PCT_VERSION_NUMBER PCT_MAKE_VERSION(PCT_VERSION_MAJOR, PCT_VERSION_MINOR, PCT_VERSION_PATCH)

#if defined(PCT_STATIC)
#define PCT_API
#elif defined(_WIN32) && defined(PCT_BUILDING)
#define PCT_API __declspec(dllexport)
#elif defined(_WIN32)
#define PCT_API __declspec(dllimport)
#elif defined(__GNUC__)
#define PCT_API __attribute__((visibility("default")))
#else
#define PCT_API
#endif

/* The version of the library actually linked, e.g. "0.2.0". */
PCT_API const char *pct_version(void);

/* ------------------------------------------------------------------------ */
/* Encode sets: 256 bits, one per byte value. A byte in the set is escaped.  */
/* ------------------------------------------------------------------------ */

/* Bit (b & 7) of bits[b >> 3] is set when byte b is in the set. */
typedef struct pct_set {
    uint8_t bits[32];
} pct_set;

/* Every predefined set contains 0x00-0x1F and 0x7F-0xFF; they differ in the
 * printable ASCII bytes 0x20-0x7E they add:
 *   c0_control      nothing                                   WHATWG
 *   fragment        space " < > `                             WHATWG
 *   query           space " # < >                             WHATWG
 *   special_query   query + '                                 WHATWG
 *   path            query + ? ^ ` { }                         WHATWG
 *   userinfo        path + / : ; = @ [ \ ] |                  WHATWG
 *   component       userinfo + $ % & + ,                      WHATWG (same bytes as uri_component)
 *   form            component + ! ' ( ) ~                     WHATWG urlencoded
 *   rfc3986         all but A-Z a-z 0-9 - . _ ~               RFC 3986, OAuth 1.0, AWS SigV4
 *   uri             all but unreserved ! ' ( ) * ; / ? : @ & = + $ , #   encodeURI
 *   uri_component   all but unreserved ! ' ( ) *              encodeURIComponent
 */
PCT_API extern const pct_set pct_set_c0_control;
PCT_API extern const pct_set pct_set_fragment;
PCT_API extern const pct_set pct_set_query;
PCT_API extern const pct_set pct_set_special_query;
PCT_API extern const pct_set pct_set_path;
PCT_API extern const pct_set pct_set_userinfo;
PCT_API extern const pct_set pct_set_component;
PCT_API extern const pct_set pct_set_form;
PCT_API extern const pct_set pct_set_rfc3986;
PCT_API extern const pct_set pct_set_uri;
PCT_API extern const pct_set pct_set_uri_component;

/* Set builders. Sets are plain values: copy a predefined one, then edit it.
 *   pct_set s = pct_set_rfc3986; pct_set_remove_chars(&s, "/");   // Python quote(safe='/') */
PCT_API void pct_set_clear(pct_set *set); /* empty set */
PCT_API void pct_set_fill(pct_set *set);  /* all 256 bytes */
PCT_API void pct_set_add_byte(pct_set *set, unsigned char byte);
PCT_API void pct_set_remove_byte(pct_set *set, unsigned char byte);
/* Add/remove the bytes of the NUL-terminated string chars. */
PCT_API void pct_set_add_chars(pct_set *set, const char *chars);
PCT_API void pct_set_remove_chars(pct_set *set, const char *chars);
/* Add/remove every byte from first to last inclusive (nothing if first > last). */
PCT_API void pct_set_add_range(pct_set *set, unsigned char first, unsigned char last);
PCT_API void pct_set_remove_range(pct_set *set, unsigned char first, unsigned char last);
/* 1 if byte is in the set, else 0. */
PCT_API int pct_set_contains(const pct_set *set, unsigned char byte);
/* The predefined set of that name ("component", "uri-component", "rfc3986",
 * ...; '-' or '_' both accepted), or NULL. */
PCT_API const pct_set *pct_set_by_name(const char *name);

/* ------------------------------------------------------------------------ */
/* Results, flags                                                            */
/* ------------------------------------------------------------------------ */

typedef enum pct_status {
    PCT_OK = 0,
    /* '%' not followed by two hex digits (PCT_STRICT, or a '%' that is itself
     * in the set for pct_validate), or a lone surrogate %uD800-%uDFFF under
     * PCT_PERCENT_U|PCT_STRICT. count: offset of that '%'. */
    PCT_INVALID_ESCAPE = 1,
    /* PCT_UTF8: ill-formed UTF-8 (overlong, surrogate, > U+10FFFF, truncated,
     * stray continuation byte). count: input offset of the first byte (a
     * literal byte or the '%' of an escape) of the ill-formed sequence. */
    PCT_INVALID_UTF8 = 2,
    /* pct_validate: a byte in the set appears unescaped. count: its offset. */
    PCT_UNESCAPED_BYTE = 3,
    /* A flag the function does not take, a contradictory flag combination, a
     * NULL pointer with a non-zero length, or an input too long for its output
     * size to be representable. count: 0. Nothing is written. */
    PCT_INVALID_ARGUMENT = 4,
    /* pct_normalize_path: an escape whose byte the policy REJECTs (%00, %2F,
     * ...). count: offset of its '%'. */
    PCT_REJECTED_BYTE = 5,
    /* pct_normalize_path_v2: the path is refused by an option of the policy:
     * ".." above the root (PCT_PATH_REJECT_ABOVE_ROOT), a dot segment with
     * parameters (PCT_PATH_REJECT_DOT_PARAMS), or any change at all
     * (PCT_PATH_REJECT_CHANGED). count: input offset of the segment (of the
     * first change, for PCT_PATH_REJECT_CHANGED). */
    PCT_REJECTED_PATH = 6,
    /* Batch calls: the output buffer (or the range of 32-bit output offsets)
     * cannot hold the next string's output. count: the number of strings
     * done; their outputs, offsets and results are written. */
    PCT_NO_SPACE = 7
} pct_status;

typedef struct pct_result {
    pct_status status;
    size_t count; /* PCT_OK: bytes written; else: input offset of the error */
} pct_result;

/* A short English description of a status ("invalid escape", ...). */
PCT_API const char *pct_status_string(pct_status status);

enum {
    /* Form mode. Encode: ' ' becomes '+' (when ' ' is in the set). Decode:
     * '+' becomes ' ', and %2B becomes '+' (one pass: '+' is handled before
     * escapes, so "+%2B" is " +"). */
    PCT_PLUS = 1,
    /* Decode, normalize, validate: a '%' not followed by two hex digits is an
     * error (PCT_INVALID_ESCAPE) instead of being copied as is. */
    PCT_STRICT = 2,
    /* Encode: the input must be well-formed UTF-8. Decode, validate: the
     * decoded output must be. Else PCT_INVALID_UTF8. */
    PCT_UTF8 = 4,
    /* Encode: a '%' followed by two hex digits is copied as is (no double
     * encoding); any other '%' is encoded if '%' is in the set. */
    PCT_KEEP_ESCAPES = 8,
    /* Decode, validate: also %uXXXX (a UTF-16 code unit, either hex case),
     * written as UTF-8; a high surrogate followed by %uDC00-%uDFFF forms one
     * code point. A lone surrogate is copied as written (PCT_STRICT: error). */
    PCT_PERCENT_U = 16,
    /* Decode: each maximal ill-formed UTF-8 subpart of the output becomes
     * U+FFFD (EF BF BD), as the WHATWG UTF-8 decoder does. dst needs 3*len
     * bytes and must not overlap src. Not with PCT_UTF8. */
    PCT_UTF8_REPLACE = 32
};

/* ------------------------------------------------------------------------ */
/* One-shot operations                                                       */
/* ------------------------------------------------------------------------ */

/* Exact length pct_encode would write for this input. Honours PCT_PLUS and
 * PCT_KEEP_ESCAPES; ignores the other flags (the length if encoding succeeds).
 * Saturates at SIZE_MAX. set == NULL counts as the empty set. O(len). */
PCT_API size_t pct_encode_length(const char *src, size_t len, const pct_set *set, unsigned flags);

/* Writes each byte of src that is in set as %HH (upper-case hex), every other
 * byte as is. dst needs pct_encode_length() bytes; 3*len always suffices.
 * dst must not overlap src. Flags: PCT_PLUS, PCT_KEEP_ESCAPES, PCT_UTF8.
 * Errors: PCT_INVALID_UTF8 (with PCT_UTF8), PCT_INVALID_ARGUMENT. */
PCT_API pct_result pct_encode(const char *src, size_t len, char *dst, const pct_set *set,
                              unsigned flags);

/* Replaces every %HH (either hex case) by its byte. Lenient by default: any
 * other '%' is copied as is (WHATWG percent-decode). Each escape is decoded
 * once: "%2541" gives "%41". dst needs len bytes (3*len with
 * PCT_UTF8_REPLACE); dst == src is allowed (except with PCT_UTF8_REPLACE).
 * Flags: PCT_PLUS, PCT_STRICT, PCT_UTF8, PCT_UTF8_REPLACE, PCT_PERCENT_U.
 * Errors: PCT_INVALID_ESCAPE (PCT_STRICT), PCT_INVALID_UTF8 (PCT_UTF8),
 * PCT_INVALID_ARGUMENT. */
PCT_API pct_result pct_decode(const char *src, size_t len, char *dst, unsigned flags);

/* pct_decode, except that an escape whose byte is in keep is copied as
 * written (original hex case; with PCT_PERCENT_U, %uXXXX of an ASCII byte in
 * keep too, so %u002F cannot bypass a kept %2F). keep = pct_set of "#$&+,/:;=?@" gives
 * JavaScript decodeURI; keep = {'/'} decodes a path without turning %2F into a
 * separator. keep == NULL keeps nothing. Same flags, sizes and errors. */
PCT_API pct_result pct_decode_except(const char *src, size_t len, char *dst, const pct_set *keep,
                                     unsigned flags);

/* RFC 3986 6.2.2.1-2: the hex digits of every escape become upper case, an
 * escape of an unreserved byte (A-Z a-z 0-9 - . _ ~) becomes that byte,
 * nothing else changes. A '%' not followed by two hex digits is copied
 * (PCT_STRICT: PCT_INVALID_ESCAPE). Idempotent: to stay so on malformed input,
 * an escape of a hex digit that would land in one of the two output bytes
 * right after such a stray '%' stays encoded (so "%6%41" is not turned into
 * the escape "%6A"). Output is never longer than the input; dst == src
 * allowed. Flags: PCT_STRICT. */
PCT_API pct_result pct_normalize(const char *src, size_t len, char *dst, unsigned flags);

/* Checks that src is correctly encoded for set: every byte is outside set or
 * part of a well-formed escape. On PCT_OK, count is the length pct_decode
 * would write with the same flags. Errors: PCT_UNESCAPED_BYTE (a byte in set),
 * PCT_INVALID_ESCAPE (a '%' not starting an escape, when '%' is in set or
 * with PCT_STRICT), PCT_INVALID_UTF8 (PCT_UTF8: the decoded bytes are not
 * UTF-8; it wins when two errors start at the same offset). Flags: PCT_PLUS
 * ('+' is accepted as an encoded space), PCT_STRICT, PCT_UTF8, PCT_PERCENT_U. */
PCT_API pct_result pct_validate(const char *src, size_t len, const pct_set *set, unsigned flags);

/* Checks that src[0..len) is well-formed UTF-8 (Unicode Table 3-7: no
 * overlong form, surrogate, code point above U+10FFFF, truncated sequence or
 * stray continuation byte), the test PCT_UTF8 makes on decoded output. Nothing
 * is decoded: '%' is a byte like any other. Returns {PCT_OK, len}, or
 * {PCT_INVALID_UTF8, offset of the first byte of the first ill-formed
 * sequence}; PCT_INVALID_ARGUMENT for src == NULL with len > 0. */
PCT_API pct_result pct_validate_utf8(const char *src, size_t len);

/* Offset of the first byte of src that is in set, or len if none (also when
 * set == NULL). */
PCT_API size_t pct_find(const char *src, size_t len, const pct_set *set);

/* Where every byte of set is in src: bit i % 64 of bits[i / 64] is set when
 * src[i] is in set, for every i < len; the bits of the last word past len
 * are 0. bits has room for (len + 63) / 64 words. A tokenizer's first pass
 * (separators, quotes, line ends, '%'): one SIMD classification per 64
 * bytes, after which the next separator is a count of zero bits and the
 * members of a range a population count. Nothing is written for
 * set == NULL or src == NULL. */
PCT_API void pct_find_all(const char *src, size_t len, const pct_set *set, uint64_t *bits);

/* ------------------------------------------------------------------------ */
/* Streaming: for every way of cutting an input into chunks, the output is   */
/* byte-identical to the one-shot call, and errors carry the same status and */
/* the same offset (counted from the start of the whole input). A '%', '%X', */
/* an unfinished %uXXXX or surrogate pair, or an unfinished UTF-8 sequence at */
/* a chunk's end is carried into the next call (at most PCT_STREAM_CARRY    */
/* bytes). After an error, every further call returns that same error.       */
/* dst may be NULL only when nothing can be written (an update with len 0, a */
/* finish with nothing carried); otherwise a NULL src or dst is              */
/* PCT_INVALID_ARGUMENT at offset 0. The state is a plain struct: no         */
/* allocation, no cleanup.                                                   */
/* ------------------------------------------------------------------------ */

#define PCT_STREAM_CARRY 16

/* The state shared by the decoder and the encoder. Private: use the functions.
 * Callers embed it by value, so its size is part of the ABI: `reserved` is
 * room for later versions to keep state without changing that size (the
 * init functions zero it). */
typedef struct pct_stream_state {
    const pct_set *set; /* keep set (decoder) or encode set (encoder) */
    size_t position;    /* input offset of carry[0] */
    unsigned flags;
    pct_status status; /* PCT_OK, or the error every later call returns */
    size_t error;
    unsigned char carry_len;
    unsigned char carry[PCT_STREAM_CARRY];
    size_t reserved[4];
} pct_stream_state;

typedef struct pct_decoder {
    pct_stream_state state;
} pct_decoder;

/* flags and keep as for pct_decode_except (keep may be NULL). Returns
 * PCT_OK or PCT_INVALID_ARGUMENT (then every later call returns that too). */
PCT_API pct_status pct_decoder_init(pct_decoder *dec, const pct_set *keep, unsigned flags);
/* Decodes what it can of src. dst needs len + PCT_STREAM_CARRY bytes
 * (3 times that with PCT_UTF8_REPLACE) and must not overlap src. */
PCT_API pct_result pct_decoder_update(pct_decoder *dec, const char *src, size_t len, char *dst);
/* Ends the input: decodes the carried bytes. dst needs PCT_STREAM_CARRY bytes
 * (3 times that with PCT_UTF8_REPLACE). To decode another input, call
 * pct_decoder_init again. */
PCT_API pct_result pct_decoder_finish(pct_decoder *dec, char *dst);

typedef struct pct_encoder {
    pct_stream_state state;
} pct_encoder;

/* set and flags as for pct_encode; set must outlive the encoder. Returns
 * PCT_OK or PCT_INVALID_ARGUMENT (a flag pct_encode does not take, or a NULL
 * set; then every later call returns that too). */
PCT_API pct_status pct_encoder_init(pct_encoder *enc, const pct_set *set, unsigned flags);
/* dst needs 3 * (len + PCT_STREAM_CARRY) bytes and must not overlap src. */
PCT_API pct_result pct_encoder_update(pct_encoder *enc, const char *src, size_t len, char *dst);
/* Ends the input. dst needs 3 * PCT_STREAM_CARRY bytes. */
PCT_API pct_result pct_encoder_finish(pct_encoder *enc, char *dst);

/* ------------------------------------------------------------------------ */
/* Batches: many strings in one call, laid out as Arrow string arrays        */
/* ------------------------------------------------------------------------ */

/* Input: string i is data[offsets[i] .. offsets[i+1]) for i < n; offsets
 * holds n + 1 entries, non-negative and non-decreasing (offsets[0] need not
 * be 0). Output, the same layout: out_offsets (n + 1 entries) gets
 * out_offsets[0] = 0 and string i's output is out[out_offsets[i] ..
 * out_offsets[i+1]). results[i] is what the one-shot call returns for string
 * i alone: status and count (bytes written, or the error offset within that
 * string). A string that fails has an empty output and never stops the
 * batch; its status marks it invalid (an Arrow validity bitmap can be built
 * from results).
 *
 * Output room, checked before each string (no byte is ever written past
 * out + out_size): decode reserves the string's input length (3 times that
 * with PCT_UTF8_REPLACE), so out_size = offsets[n] - offsets[0] (times 3)
 * always suffices; encode reserves 3 times the input length, or, when that
 * does not fit, its exact pct_encode_length, so 3 * (offsets[n] - offsets[0])
 * always suffices (without PCT_KEEP_ESCAPES, pct_encode_length of the whole
 * data range is the exact total). With 32-bit offsets the output may also not
 * pass INT32_MAX.
 *
 * Returns {PCT_OK, total bytes written} (= out_offsets[n]) when every string
 * is done; {PCT_NO_SPACE, strings done} when the next string's room is not
 * there (call again with the rest, offsets + done); {PCT_INVALID_ARGUMENT, 0}
 * for a flag the one-shot call does not take, a NULL pointer (data and out
 * may be NULL only with nothing to read or write), offsets that decrease or
 * are negative, or out overlapping data or the arrays: nothing is written
 * then. Flags and keep/set are those of pct_decode_except and pct_encode. */
PCT_API pct_result pct_decode_batch32(const char *data, const int32_t *offsets, size_t n, char *out,
                                      size_t out_size, int32_t *out_offsets, pct_result *results,
                                      const pct_set *keep, unsigned flags);
PCT_API pct_result pct_decode_batch64(const char *data, const int64_t *offsets, size_t n, char *out,
                                      size_t out_size, int64_t *out_offsets, pct_result *results,
                                      const pct_set *keep, unsigned flags);
PCT_API pct_result pct_encode_batch32(const char *data, const int32_t *offsets, size_t n, char *out,
                                      size_t out_size, int32_t *out_offsets, pct_result *results,
                                      const pct_set *set, unsigned flags);
PCT_API pct_result pct_encode_batch64(const char *data, const int64_t *offsets, size_t n, char *out,
                                      size_t out_size, int64_t *out_offsets, pct_result *results,
                                      const pct_set *set, unsigned flags);

/* ------------------------------------------------------------------------ */
/* Implementations (SIMD kernels picked at run time)                         */
/* ------------------------------------------------------------------------ */

/* Name of the implementation in use: "avx2", "sse42", "neon", "scalar", ...
 * Chosen once, on first use: the best one this CPU runs, or the one named by
 * the environment variable PCT_IMPL (an unknown or unavailable name is
 * reported on stderr and the best one is used). */
PCT_API const char *pct_implementation(void);
/* Switches every later call to the named implementation. Returns 0, or -1 if
 * that name is unknown or this CPU cannot run it (nothing changes). Meant for
 * tests and benchmarks; safe to call from any thread, but calls already
 * running finish on the implementation they started with. */
PCT_API int pct_use_implementation(const char *name);
/* The implementations this build and this CPU can run, best first:
 * for i in 0 .. until NULL. */
PCT_API const char *pct_implementation_name(size_t i);

/* ------------------------------------------------------------------------ */
/* Request paths (proxies) and IRI <-> URI                                   */
/* ------------------------------------------------------------------------ */

/* What pct_normalize_path does with an escape of a byte in a class. */
typedef enum pct_path_action {
    PCT_PATH_KEEP = 0,   /* leave it escaped (hex upper-cased) */
    PCT_PATH_DECODE = 1, /* replace it by its byte (see %2F and %5C below) */
    PCT_PATH_REJECT = 2  /* fail with PCT_REJECTED_BYTE at the offset of its '%' */
} pct_path_action;

enum {
    /* Repeated separators count as one: "/a//b" is "/a/b" (before dot
     * segments are removed, so "/a//../b" is "/b"). */
    PCT_PATH_MERGE_SLASHES = 1,
    /* A literal '\' is a separator, written '/' (WHATWG special URLs,
     * Windows back ends); a %5C under DECODE then is one too. */
    PCT_PATH_BACKSLASH = 2,
    /* The path, every escape decoded, must be well-formed UTF-8
     * (PCT_INVALID_UTF8 at the first byte of the ill-formed sequence). */
    PCT_PATH_UTF8 = 4,
    /* A '%' not followed by two hex digits is PCT_INVALID_ESCAPE (by
     * default it is copied, with pct_normalize's stray-'%' rule). */
    PCT_PATH_STRICT = 8
};

/* A policy: one action per class of escaped byte, plus PCT_PATH_* options.
 * Controls are KEEP or REJECT: DECODE is PCT_INVALID_ARGUMENT (a decoded
 * %0D%0A in a forwarded path is request splitting, %00 truncation).
 * Every other escape is normalized as by pct_normalize (unreserved bytes
 * decoded, the rest kept with upper-case hex). Literal bytes are copied
 * unchanged (only '\' may become '/'): rejecting raw control bytes or
 * spaces is the HTTP parser's job.
 * Growth: a later version that needs a new setting appends a field and
 * reads it only when a new PCT_PATH_* option bit says it is there, so a
 * policy written for this version (which cannot set that bit: unknown bits
 * are PCT_INVALID_ARGUMENT) keeps its meaning and its size. */
typedef struct pct_path_policy {
    pct_path_action encoded_slash;     /* %2F */
    pct_path_action encoded_backslash; /* %5C */
    pct_path_action encoded_control;   /* %00-%1F and %7F: KEEP or REJECT */
    pct_path_action encoded_percent;   /* %25 */
    unsigned options;                  /* PCT_PATH_* */
} pct_path_policy;

/* Presets. Literal '.'/'..' segments and their escaped spellings (%2e, %2E,
 * .%2e, %2e., %2e%2e) are removed by all of them.
 *   default  %2F KEEP, %5C KEEP, controls REJECT, %25 KEEP; MERGE_SLASHES |
 *            BACKSLASH. Conservative: decodes only unreserved bytes (and
 *            writes '\' as '/'), so no later hop that decodes once finds a
 *            separator, a dot segment or an escape the proxy did not see.
 *   nginx    %2F DECODE, %5C DECODE, controls REJECT, %25 DECODE;
 *            MERGE_SLASHES. nginx builds $uri by decoding every escape and
 *            resolving dot segments on the decoded bytes (%2F is a
 *            separator; merge_slashes on); it rejects %00 (it decodes
 *            %01-%1F, which this preset rejects) and treats '\' as a
 *            separator only on Windows.
 *   envoy    %2F KEEP, %5C KEEP, controls KEEP, %25 KEEP; MERGE_SLASHES |
 *            BACKSLASH. Envoy normalize_path (RFC 3986 normalization and
 *            dot segments, '\' to '/') + merge_slashes, with
 *            path_with_escaped_slashes_action KEEP_UNCHANGED (its default;
 *            the action covers %2F and %5C together: REJECT_REQUEST is
 *            REJECT for both, UNESCAPE_AND_FORWARD is DECODE for both).
 *   apache   %2F KEEP, %5C DECODE, controls REJECT, %25 DECODE;
 *            MERGE_SLASHES. httpd with AllowEncodedSlashes NoDecode (%2F
 *            allowed, left encoded) and MergeSlashes On; it decodes other
 *            escapes when mapping to a file, refuses %00, and on Unix a
 *            decoded '\' is an ordinary byte.
 * The presets model what each server decides on, not its exact bytes (they
 * re-encode differently when forwarding). In front of a back end that
 * decodes %5C and splits on '\' (IIS, Windows file systems) use %5C REJECT,
 * or DECODE with PCT_PATH_BACKSLASH: under KEEP "/..%5C..%5Cx" is one
 * segment here and a traversal there. Path parameters are not dot segments
 * ("/..;/" stays): Java servlet containers that strip ";..." need "..;"
 * rejected by the caller. */
PCT_API extern const pct_path_policy pct_path_policy_default;
PCT_API extern const pct_path_policy pct_path_policy_nginx;
PCT_API extern const pct_path_policy pct_path_policy_envoy;
PCT_API extern const pct_path_policy pct_path_policy_apache;
/* The preset of that name ("default", "nginx", "envoy", "apache") or NULL. */
PCT_API const pct_path_policy *pct_path_policy_by_name(const char *name);

/* Normalizes the path of an origin-form request target ("/p/a/t/h?query";
 * give the path and query of an absolute-form target, not the whole URL):
 * src up to its first '?' or '#' is the path; from there on (query,
 * fragment) it is copied as is.
 * In the path, in this order, one token (byte or escape) at a time:
 *  1. separators are found: '/', and with PCT_PATH_BACKSLASH '\'. An escape
 *     under DECODE is decoded *before* the path is split: %2F (DECODE) is a
 *     separator, %5C (DECODE) one with PCT_PATH_BACKSLASH. So
 *     "/a/..%2F..%2Fetc" with %2F DECODE is "/etc", with %2F KEEP the one
 *     segment "..%2F..%2Fetc": the output never holds a separator or a dot
 *     segment that the normalization did not act on (decoding after
 *     splitting would hand the next hop a fresh "../").
 *  2. each escape gets its class's action (REJECT stops with
 *     PCT_REJECTED_BYTE); other escapes are normalized as pct_normalize does.
 *     %25 under DECODE stays %25 when the two bytes after it are hex digits
 *     (nothing is decoded twice) or under PCT_PATH_STRICT, and an escape of
 *     a hex digit right after a '%' stays escaped (pct_normalize's
 *     stray-'%' rule).
 *  3. dot segments are removed (RFC 3986 5.2.4). A segment is a dot segment
 *     when it is exactly "." or ".." once its unreserved escapes are decoded,
 *     so "%2e", ".%2E", "%2e%2e" are dots; "a%2e" or "..%2F.." are not (dots
 *     are recognised only as whole segments). ".." never climbs above the
 *     root: "/../a" is "/a". A relative path (no leading separator) follows
 *     5.2.4 literally: leading "../" and "./" are dropped, "a/../b" is "/b".
 * Output: separators written '/'; never longer than the input; the result is
 * a fixed point (normalizing it again with the same policy changes nothing)
 * and contains no "." or ".." segment. dst needs len bytes; dst == src is
 * allowed (otherwise they must not overlap). policy NULL: the default.
 * Errors: PCT_REJECTED_BYTE, PCT_INVALID_UTF8 (PCT_PATH_UTF8),
 * PCT_INVALID_ESCAPE (PCT_PATH_STRICT), PCT_INVALID_ARGUMENT (also for an
 * action or option out of range). */
PCT_API pct_result pct_normalize_path(const char *src, size_t len, char *dst,
                                      const pct_path_policy *policy);

/* ---- Path policy, version 2 -------------------------------------------------
 * An action per escaped byte (so per class, or per byte for other needs),
 * more options, two more presets, and a report of what normalization did.
 * pct_normalize_path_v2 is pct_normalize_path (same steps, same output) with
 * such a policy; a v1 policy means the v2 policy whose classes have its
 * actions and whose other escapes are KEEP (';', '?', '#') or normalized. */

/* The classes a proxy decides on: Traefik's encodedCharacters, and the
 * other controls. */
typedef enum pct_path_class {
    PCT_PATH_CLASS_SLASH = 0,     /* %2F */
    PCT_PATH_CLASS_BACKSLASH = 1, /* %5C */
    PCT_PATH_CLASS_NUL = 2,       /* %00 */
    PCT_PATH_CLASS_SEMICOLON = 3, /* %3B */
    PCT_PATH_CLASS_PERCENT = 4,   /* %25 */
    PCT_PATH_CLASS_QUESTION = 5,  /* %3F */
    PCT_PATH_CLASS_HASH = 6,      /* %23 */
    PCT_PATH_CLASS_CONTROL = 7,   /* %01-%1F and %7F */
    PCT_PATH_CLASSES = 8
} pct_path_class;

enum {
    /* ".." above the root is PCT_REJECTED_PATH (nginx answers 400), not
     * dropped. */
    PCT_PATH_REJECT_ABOVE_ROOT = 16,
    /* A segment whose part before its first ';' is "." or ".." is that dot
     * segment, parameters and all: "/a/..;x/b" is "/b" (Tomcat and Jetty
     * read "..;" as ".."). */
    PCT_PATH_DOT_PARAMS = 32,
    /* Such a segment is PCT_REJECTED_PATH instead. */
    PCT_PATH_REJECT_DOT_PARAMS = 64,
    /* Any change to the path is PCT_REJECTED_PATH at its input offset: only
     * paths that are already normal pass (Traefik's latest behaviour). */
    PCT_PATH_REJECT_CHANGED = 128
};

/* The policy: what to do with an escape of each byte, and PCT_PATH_*
 * options. Fill it with pct_path_policy_v2_init, then change what you need.
 * For the bytes that RFC 3986 calls unreserved (ALPHA DIGIT - . _ ~) the
 * action is DECODE or REJECT; for '?' and '#', KEEP or REJECT (a decoded one
 * would end the path for the next hop); for the controls (0x00-0x1F, 0x7F),
 * KEEP or REJECT (decoded, %0D%0A would split the request at the next hop);
 * for any other byte, any action
 * (DECODE of '/' or, with PCT_PATH_BACKSLASH, '\' makes a separator, as in
 * v1). Anything else is PCT_INVALID_ARGUMENT. `size` is set by the init
 * function: a later version that appends fields reads them only from
 * policies that are that large. */
typedef struct pct_path_policy_v2 {
    uint32_t size;
    uint32_t options;    /* PCT_PATH_* */
    uint8_t action[256]; /* pct_path_action of an escape of each byte */
} pct_path_policy_v2;

/* Fills *policy with a preset: "default", "nginx", "envoy", "apache" (the v1
 * presets, with ';', '?' and '#' KEEP), or
 *   traefik  Traefik's encodedCharacters as its security documentation
 *            recommends: %2F, %5C, %00, %3B, %25, %3F and %23 REJECT; other
 *            controls KEEP; unreserved escapes decoded, hex upper-cased, dot
 *            segments removed, MERGE_SLASHES. (Some 3.6 releases allow the
 *            seven by default: set them to KEEP for those.) Traefik does not
 *            treat a literal '\' as a separator.
 *   strict   for services that accept only clean paths: every class REJECT,
 *            MERGE_SLASHES | BACKSLASH | UTF8 | STRICT | REJECT_ABOVE_ROOT |
 *            REJECT_DOT_PARAMS.
 * name NULL is "default". Returns PCT_OK, or PCT_INVALID_ARGUMENT for an
 * unknown name (policy then holds the default). */
PCT_API pct_status pct_path_policy_v2_init(pct_path_policy_v2 *policy, const char *name);
/* Sets the action of every byte of a class. PCT_INVALID_ARGUMENT for a class
 * or action out of range, or DECODE for '?', '#', %00 or the controls. */
PCT_API pct_status pct_path_policy_v2_set(pct_path_policy_v2 *policy, pct_path_class cls,
                                          pct_path_action action);

/* What normalization did (pct_path_report.changes). */
enum {
    PCT_PATH_DID_DECODE_UNRESERVED = 1, /* "%41" became "A" */
    PCT_PATH_DID_DECODE = 2,            /* a DECODE action ("%2F" became "/") */
    PCT_PATH_DID_UPPERCASE_HEX = 4,     /* "%3b" became "%3B" */
    PCT_PATH_DID_REMOVE_DOTS = 8,       /* a "." or ".." segment removed */
    PCT_PATH_DID_SEE_ENCODED_DOTS = 16, /* ... spelled with an escape ("%2e%2e") */
    PCT_PATH_DID_CLAMP_AT_ROOT = 32,    /* ".." above the root dropped */
    PCT_PATH_DID_MERGE_SLASHES = 64,    /* "//" became "/" */
    PCT_PATH_DID_BACKSLASH = 128,       /* a '\' became '/' */
    PCT_PATH_DID_SEE_PARAMS = 256       /* a segment holds a ';' (path parameters) */
};

/* What pct_normalize_path_v2 did. The caller provides it, so its size is
 * part of the ABI. Growth, as pct_path_policy's: a later version that
 * reports more appends a field and fills it only when a new PCT_PATH_*
 * option bit of the policy asks for it, so a report declared for this
 * version (whose policy cannot set that bit: unknown bits are
 * PCT_INVALID_ARGUMENT) keeps its size and is never written past. */
typedef struct pct_path_report {
    uint32_t changes; /* PCT_PATH_DID_*; every bit but SEE_PARAMS is a change */
    /* Input offset of the first token that normalization changed or
     * removed (for a ".." segment, its separator: the segment before it
     * goes too); len if none. */
    size_t first_change;
} pct_path_report;

/* The names of the bits of `changes`, comma-separated ("decode-unreserved,
 * remove-dots"), as snprintf does: writes at most size bytes with the
 * terminating NUL, returns the length the whole list needs. */
PCT_API size_t pct_path_report_format(uint32_t changes, char *buf, size_t size);

/* pct_normalize_path with a v2 policy (NULL: the "default" preset) and, if
 * report is not NULL, what it did: filled on PCT_OK and on
 * PCT_REJECTED_PATH (then up to the refusal). */
PCT_API pct_result pct_normalize_path_v2(const char *src, size_t len, char *dst,
                                         const pct_path_policy_v2 *policy, pct_path_report *report);

/* RFC 3987 3.1: IRI to URI. Every byte of a non-ASCII code point is written
 * %HH (UTF-8, upper-case hex); ASCII, including '%' escapes and reserved
 * characters, is copied. Every well-formed non-ASCII code point is encoded,
 * also the few outside ucschar/iprivate (U+0080-U+009F, noncharacters): a
 * URI can only carry them encoded. src must be well-formed UTF-8, else
 * PCT_INVALID_UTF8 at the first byte of the ill-formed sequence. dst needs
 * 3*len bytes and must not overlap src. */
PCT_API pct_result pct_iri_to_uri(const char *src, size_t len, char *dst);

/* RFC 3987 3.2: URI to IRI. A run of escapes that is the well-formed UTF-8
 * of one code point is decoded when that code point is a ucschar, or an
 * iprivate inside the query (after the first '?' and before a '#': the only
 * component RFC 3987 allows them in). Everything else stays as written:
 * escapes of ASCII bytes, of ill-formed sequences, of other code points, and
 * of the bidi formatting characters of RFC 3987 4.1 (U+200E, U+200F,
 * U+202A-U+202E); literal bytes are copied. Never fails on well-formed
 * arguments; never longer than the input; dst == src allowed (otherwise no
 * overlap). */
PCT_API pct_result pct_uri_to_iri(const char *src, size_t len, char *dst);

#ifdef __cplusplus
}
#endif

#endif /* PCT_H */
