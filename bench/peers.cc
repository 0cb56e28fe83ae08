// peers.cc - the same workloads through other C libraries, when the build
// found them (HAVE_CURL, HAVE_URIPARSER, HAVE_GLIB): like with like only.
//
//   encode-rfc3986 (escape all but A-Z a-z 0-9 - . _ ~, upper-case hex):
//     curl_easy_escape, uriEscapeExA, g_uri_escape_bytes
//   encode-component (also keep ! ' ( ) *): g_uri_escape_bytes with those
//     as reserved_chars_allowed
//   decode (lenient: a '%' not starting an escape is copied):
//     curl_easy_unescape, uriUnescapeInPlaceExA, g_uri_unescape_bytes
//     (GLib rejects a malformed '%' instead; the inputs here have none)
//   decode-plus ('+' is a space): uriUnescapeInPlaceExA(plusToSpace)
//
// Every peer row must reproduce libpct's scalar output exactly before it is
// timed, else it is skipped with the reason. What a row times is the call as
// a caller must make it: curl and GLib allocate their result (timed: the call
// and the free; not a strlen of the result); uriparser's decoder works in
// place on a NUL-terminated string (timed: copying the record into a writable
// buffer, then the call). uriparser reads C strings, so it is not
// binary-safe: rows whose input holds a NUL byte are skipped.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include <benchmark/benchmark.h>

#if HAVE_CURL
#include <curl/curl.h>
#endif
#if HAVE_URIPARSER
#include <uriparser/Uri.h>
#endif
#if HAVE_GLIB
#include <glib.h>
#endif

#include "common.h"
#include "datasets.h"

namespace pctbench {
namespace {

// A peer operation: run() returns the output length (SIZE_MAX on failure).
// With check, the output is copied to dst for comparison; without, dst is
// only used by peers that write into caller memory (uriparser).
template <class Peer> class PeerBench : public benchmark::Fixture {
  public:
    using benchmark::Fixture::SetUp;
    using benchmark::Fixture::TearDown;

    PeerBench(const std::string &op, const std::string &dataset, size_t size, const Peer &peer)
        : op_(op), dataset_(dataset), size_(size), peer_(peer)
    {
        SetName(row_name(op, dataset, size, Peer::kName).c_str());
        Unit(benchmark::kMicrosecond);
    }

    void SetUp(benchmark::State &state) override
    {
        if (!checked_)
            check();
        if (!skip_.empty())
            state.SkipWithError(skip_.c_str());
    }

  protected:
    void BenchmarkCase(benchmark::State &state) override
    {
        const Batch &b = batch(dataset_, size_);
        const char *in = b.input.data();
        char *const out0 = scratch(b.total * 3 + b.records.size() + 64);
        size_t sum = 0;
        for (auto _ : state) {
            char *out = out0;
            for (const Record &r : b.records) {
                size_t n = peer_.run(in + r.offset, r.len, out, false);
                if (Peer::kWritesDst)
                    out += n;
                sum += n;
            }
            benchmark::DoNotOptimize(sum);
            benchmark::ClobberMemory();
        }
        if (state.error_occurred())
            return;
        state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                                static_cast<int64_t>(b.total));
        state.counters["rec_bytes"] = static_cast<double>(b.total) / b.records.size();
        state.counters["out/in"] = static_cast<double>(out_bytes_) / b.total;
    }

  private:
    void check()
    {
        checked_ = true;
        const Batch &b = batch(dataset_, size_);
        if (Peer::kCString && b.has_nul) {
            skip_ = std::string(Peer::kName) +
                    ": not binary-safe (reads C strings) and this input contains NUL bytes";
            return;
        }
        const Reference &ref = reference(op_, b);
        if (!ref.error.empty()) {
            skip_ = ref.error;
            return;
        }
        Digest d;
        char *out = scratch(b.total * 3 + 64);
        for (size_t i = 0; i < b.records.size(); i++) {
            const Record &r = b.records[i];
            size_t n = peer_.run(b.input.data() + r.offset, r.len, out, true);
            if (n == SIZE_MAX) {
                skip_ = std::string(Peer::kName) + ": failed on record " + std::to_string(i);
                return;
            }
            d.add_result(PCT_OK, n);
            d.add(out, n);
            out_bytes_ += n;
        }
        if (d.value() != ref.digest) {
            skip_ = std::string(Peer::kName) + ": output differs from libpct's";
            std::fprintf(stderr, "bench: %s: %s\n",
                         row_name(op_, dataset_, size_, Peer::kName).c_str(), skip_.c_str());
        }
    }

    std::string op_;
    std::string dataset_;
    size_t size_;
    Peer peer_;
    bool checked_ = false;
    std::string skip_;
    size_t out_bytes_ = 0;
};

template <class Peer> void add_peer(const std::string &op, const Peer &peer)
{
    for (const Case &c : cases(op))
        benchmark::internal::RegisterBenchmarkInternal(
            new PeerBench<Peer>(op, c.dataset, c.size, peer));
}

#if HAVE_CURL
// curl_easy_escape returns NULL when its output would exceed 8,000,000 bytes
// (CURL_MAX_INPUT_LENGTH): longer inputs go in chunks whose output fits.
constexpr size_t kCurlChunk = 2000000;

CURL *curl_handle()
{
    static CURL *handle = [] {
        curl_global_init(CURL_GLOBAL_DEFAULT);
        return curl_easy_init();
    }();
    return handle;
}

struct CurlEscape {
    static constexpr const char *kName = "curl";
    static constexpr bool kWritesDst = false;
    static constexpr bool kCString = false;
    size_t run(const char *src, size_t len, char *dst, bool check) const
    {
        size_t total = 0;
        for (size_t off = 0; off < len; off += kCurlChunk) {
            size_t n = len - off < kCurlChunk ? len - off : kCurlChunk;
            char *e = curl_easy_escape(curl_handle(), src + off, static_cast<int>(n));
            if (e == nullptr)
                return SIZE_MAX;
            if (check) {
                size_t elen = std::strlen(e);
                std::memcpy(dst + total, e, elen);
                total += elen;
            }
            curl_free(e);
        }
        return total;
    }
};

struct CurlUnescape {
    static constexpr const char *kName = "curl";
    static constexpr bool kWritesDst = false;
    static constexpr bool kCString = false;
    size_t run(const char *src, size_t len, char *dst, bool check) const
    {
        // Decoding never lengthens, and an escape split by a chunk boundary
        // would be copied as is: decode in one call (records are <= 1 MiB).
        int outlen = 0;
        char *d = curl_easy_unescape(curl_handle(), src, static_cast<int>(len), &outlen);
        if (d == nullptr)
            return SIZE_MAX;
        if (check)
            std::memcpy(dst, d, static_cast<size_t>(outlen));
        curl_free(d);
        return static_cast<size_t>(outlen);
    }
};
#endif

#if HAVE_URIPARSER
struct UriparserEscape {
    static constexpr const char *kName = "uriparser";
    static constexpr bool kWritesDst = true;
    static constexpr bool kCString = true;
    size_t run(const char *src, size_t len, char *dst, bool) const
    {
        // Writes at most 3 * len bytes and a NUL.
        const char *end = uriEscapeExA(src, src + len, dst, URI_FALSE, URI_FALSE);
        return static_cast<size_t>(end - dst);
    }
};

struct UriparserUnescape {
    static constexpr const char *kName = "uriparser";
    static constexpr bool kWritesDst = true;
    static constexpr bool kCString = true;
    UriBool plus;
    size_t run(const char *src, size_t len, char *dst, bool) const
    {
        std::memcpy(dst, src, len);
        dst[len] = '\0';
        const char *end = uriUnescapeInPlaceExA(dst, plus, URI_BR_DONT_TOUCH);
        return static_cast<size_t>(end - dst);
    }
};
#endif

#if HAVE_GLIB
struct GlibEscape {
    static constexpr const char *kName = "glib";
    static constexpr bool kWritesDst = false;
    static constexpr bool kCString = false;
    const char *allowed; // reserved_chars_allowed: kept as they are
    size_t run(const char *src, size_t len, char *dst, bool check) const
    {
        char *e = g_uri_escape_bytes(reinterpret_cast<const guint8 *>(src), len, allowed);
        if (e == nullptr)
            return SIZE_MAX;
        size_t n = 0;
        if (check) {
            n = std::strlen(e);
            std::memcpy(dst, e, n);
        }
        g_free(e);
        return n;
    }
};

struct GlibUnescape {
    static constexpr const char *kName = "glib";
    static constexpr bool kWritesDst = false;
    static constexpr bool kCString = false;
    size_t run(const char *src, size_t len, char *dst, bool check) const
    {
        GBytes *bytes = g_uri_unescape_bytes(src, static_cast<gssize>(len), nullptr, nullptr);
        if (bytes == nullptr)
            return SIZE_MAX;
        gsize n = 0;
        const void *p = g_bytes_get_data(bytes, &n);
        if (check)
            std::memcpy(dst, p, n);
        g_bytes_unref(bytes);
        return n;
    }
};
#endif

} // namespace

void register_peer_benchmarks()
{
    std::string peers;
#if HAVE_CURL
    peers += std::string(peers.empty() ? "" : ", ") + "curl " +
             curl_version_info(CURLVERSION_NOW)->version;
    add_peer("encode-rfc3986", CurlEscape{});
    add_peer("decode", CurlUnescape{});
#endif
#if HAVE_URIPARSER
    peers += std::string(peers.empty() ? "" : ", ") + "uriparser " URI_VER_ANSI;
    add_peer("encode-rfc3986", UriparserEscape{});
    add_peer("decode", UriparserUnescape{URI_FALSE});
    add_peer("decode-plus", UriparserUnescape{URI_TRUE});
#endif
#if HAVE_GLIB
    peers += std::string(peers.empty() ? "" : ", ") + "glib " + std::to_string(glib_major_version) +
             "." + std::to_string(glib_minor_version) + "." + std::to_string(glib_micro_version);
    add_peer("encode-rfc3986", GlibEscape{nullptr});
    add_peer("encode-component", GlibEscape{"!'()*"});
    add_peer("decode", GlibUnescape{});
#endif
    benchmark::AddCustomContext("peers", peers.empty() ? "none" : peers);
}

} // namespace pctbench
