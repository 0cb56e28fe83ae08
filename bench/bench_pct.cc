// bench_pct.cc - google-benchmark suite for libpct.
//
// One fixture per operation (PctBench<Op>), instantiated once per data set,
// record size and implementation. SetUp selects the implementation with
// pct_use_implementation() (never inside the timed loop) and skips the row
// with an error when this build or CPU cannot run it, or when its output
// differs from the scalar reference. Baseline rows (memcpy and a read-only
// pass over the same records) give the physical limit; bench/report.py turns
// the JSON into ratios within one process run.
//
// Throughput is bytes of input per second (SetBytesProcessed); counters:
// rec_bytes = mean record length, out/in = bytes written per input byte.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "common.h"
#include "datasets.h"
#include "pct.h"

namespace pctbench {

std::string row_name(const std::string &op, const std::string &dataset, size_t size,
                     const std::string &impl)
{
    return op + "/" + dataset + "/" + size_label(size) + "/" + impl;
}

char *scratch(size_t bytes)
{
    // 3x the largest batch (one 1 MiB record) plus one NUL per record.
    static const size_t capacity = 3 * (1024 * 1024 + kCorpusBytes) + kCorpusBytes;
    static AlignedBuffer buffer(capacity);
    if (bytes > capacity) {
        std::fprintf(stderr, "bench: scratch buffer too small (%zu > %zu)\n", bytes, capacity);
        std::abort();
    }
    return buffer.data();
}

namespace {

// ---------------------------------------------------------------------------
// Operations: one functor per public entry point. Each returns a pct_result;
// kWrites says whether it writes count bytes to dst.
// ---------------------------------------------------------------------------

struct EncodeOp {
    static constexpr bool kWrites = true;
    static constexpr size_t kExpansion = 3;
    const pct_set *set;
    unsigned flags;
    pct_result operator()(const char *src, size_t len, char *dst) const
    {
        return pct_encode(src, len, dst, set, flags);
    }
};

struct EncodeLengthOp {
    static constexpr bool kWrites = false;
    static constexpr size_t kExpansion = 0;
    const pct_set *set;
    pct_result operator()(const char *src, size_t len, char *) const
    {
        return pct_result{PCT_OK, pct_encode_length(src, len, set, 0)};
    }
};

// Scans the whole record: pct_find, step over the byte found, again (how a
// caller that escapes by hand uses it). count = number of bytes found.
struct FindOp {
    static constexpr bool kWrites = false;
    static constexpr size_t kExpansion = 0;
    const pct_set *set;
    pct_result operator()(const char *src, size_t len, char *) const
    {
        size_t pos = 0, hits = 0;
        while (pos < len) {
            pos += pct_find(src + pos, len - pos, set);
            if (pos < len) {
                hits++;
                pos++;
            }
        }
        return pct_result{PCT_OK, hits};
    }
};

struct DecodeOp {
    static constexpr bool kWrites = true;
    static constexpr size_t kExpansion = 1;
    unsigned flags;
    pct_result operator()(const char *src, size_t len, char *dst) const
    {
        return pct_decode(src, len, dst, flags);
    }
};

struct DecodeExceptOp {
    static constexpr bool kWrites = true;
    static constexpr size_t kExpansion = 1;
    const pct_set *keep;
    pct_result operator()(const char *src, size_t len, char *dst) const
    {
        return pct_decode_except(src, len, dst, keep, 0);
    }
};

struct NormalizeOp {
    static constexpr bool kWrites = true;
    static constexpr size_t kExpansion = 1;
    pct_result operator()(const char *src, size_t len, char *dst) const
    {
        return pct_normalize(src, len, dst, 0);
    }
};

struct ValidateOp {
    static constexpr bool kWrites = false;
    static constexpr size_t kExpansion = 0;
    const pct_set *set;
    pct_result operator()(const char *src, size_t len, char *) const
    {
        return pct_validate(src, len, set, 0);
    }
};

// JavaScript decodeURI keeps the escapes of these (pct.h, pct_decode_except).
const pct_set &decode_uri_keep()
{
    static const pct_set set = [] {
        pct_set s;
        pct_set_clear(&s);
        pct_set_add_chars(&s, "#$&+,/:;=?@");
        return s;
    }();
    return set;
}

// The set each encoded data set is valid for, with '%' added so that every
// escape is checked too: paths against the path set, query strings against
// the query set, log lines (spaces, quotes, brackets) against the C0
// controls and non-ASCII bytes only (minus the line feed), the all-escaped
// text against the component set (which has '%').
const pct_set *validate_set(const std::string &dataset)
{
    static const pct_set path = [] {
        pct_set s = pct_set_path;
        pct_set_add_byte(&s, '%');
        return s;
    }();
    static const pct_set query = [] {
        pct_set s = pct_set_query;
        pct_set_add_byte(&s, '%');
        return s;
    }();
    static const pct_set log_line = [] {
        pct_set s = pct_set_c0_control;
        pct_set_remove_byte(&s, '\n');
        pct_set_add_byte(&s, '%');
        return s;
    }();
    if (dataset == "paths")
        return &path;
    if (dataset == "query")
        return &query;
    if (dataset == "log-lines")
        return &log_line;
    return &pct_set_component;
}

std::string describe_failure(const pct_result &r, size_t record)
{
    return std::string(pct_status_string(r.status)) + " at offset " + std::to_string(r.count) +
           " of record " + std::to_string(record) + " (the data does not suit this operation)";
}

// One untimed pass over the batch, for the correctness check.
template <class Op> Reference check_pass(const Op &op, const Batch &b)
{
    Reference ref;
    Digest d;
    char *out = scratch(b.total * Op::kExpansion + 64);
    for (size_t i = 0; i < b.records.size(); i++) {
        const Record &r = b.records[i];
        pct_result res = op(b.input.data() + r.offset, r.len, out);
        d.add_result(res.status, res.count);
        if (res.status != PCT_OK) {
            if (ref.error.empty())
                ref.error = describe_failure(res, i);
            continue;
        }
        if (Op::kWrites) {
            d.add(out, res.count);
            ref.out_bytes += res.count;
        }
    }
    ref.digest = d.value();
    return ref;
}

// op name -> (batch -> one check pass with the current implementation)
std::map<std::string, std::function<Reference(const Batch &)>> &op_checkers()
{
    static std::map<std::string, std::function<Reference(const Batch &)>> m;
    return m;
}

// Why an implementation listed in kKnownImpls is not available here.
std::string unavailable_reason(const std::string &impl)
{
    std::string why = impl + ": not available: ";
#if defined(__x86_64__) || defined(__i386__)
    if (impl == "avx512" &&
        !(__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi2") &&
          __builtin_cpu_supports("avx512vpopcntdq")))
        return why + "this CPU lacks AVX-512 BW/VBMI2/VPOPCNTDQ";
    if (impl == "avx2" && !__builtin_cpu_supports("avx2"))
        return why + "this CPU lacks AVX2";
    if (impl == "sse42" && !__builtin_cpu_supports("sse4.2"))
        return why + "this CPU lacks SSE4.2";
#endif
    if (impl == "neon-simde")
        return why + "not in this build (needs SIMDe headers when building)";
    return why + "not in this build";
}

// Rows whose implementation disagreed with scalar: the run then fails (main).
size_t wrong_rows = 0;

bool available(const std::string &impl)
{
    for (size_t i = 0; const char *name = pct_implementation_name(i); i++)
        if (impl == name)
            return true;
    return false;
}

// ---------------------------------------------------------------------------
// The fixture: one per operation (Op), one instance per row.
// ---------------------------------------------------------------------------

template <class Op> class PctBench : public benchmark::Fixture {
  public:
    using benchmark::Fixture::SetUp;
    using benchmark::Fixture::TearDown;

    PctBench(const std::string &op_name, const Op &op, const std::string &dataset, size_t size,
             const std::string &impl)
        : op_name_(op_name), op_(op), dataset_(dataset), size_(size), impl_(impl)
    {
        SetName(row_name(op_name, dataset, size, impl).c_str());
        Unit(benchmark::kMicrosecond);
    }

    void SetUp(benchmark::State &state) override
    {
        if (!checked_)
            check();
        if (!skip_.empty()) {
            state.SkipWithError(skip_.c_str());
            return;
        }
        if (pct_use_implementation(impl_.c_str()) != 0)
            state.SkipWithError((impl_ + ": pct_use_implementation failed").c_str());
    }

  protected:
    void BenchmarkCase(benchmark::State &state) override
    {
        const Batch &b = batch(dataset_, size_);
        const char *in = b.input.data();
        char *const out0 = scratch(b.total * Op::kExpansion + 64);
        size_t sum = 0;
        for (auto _ : state) {
            char *out = out0;
            for (const Record &r : b.records) {
                pct_result res = op_(in + r.offset, r.len, out);
                if (Op::kWrites)
                    out += res.count; // outputs are appended, as into a stream
                sum += res.count;
            }
            benchmark::DoNotOptimize(sum);
            benchmark::ClobberMemory();
        }
        if (state.error_occurred())
            return;
        state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                                static_cast<int64_t>(b.total));
        state.counters["rec_bytes"] = static_cast<double>(b.total) / b.records.size();
        if (Op::kWrites)
            state.counters["out/in"] = static_cast<double>(ref_out_bytes_) / b.total;
    }

  private:
    // Once per row: is the implementation here, does the workload succeed
    // (scalar), and does this implementation give the scalar's results?
    void check()
    {
        checked_ = true;
        if (!available(impl_)) {
            skip_ = unavailable_reason(impl_);
            return;
        }
        const Batch &b = batch(dataset_, size_);
        const Reference &ref = reference(op_name_, b);
        ref_out_bytes_ = ref.out_bytes;
        if (!ref.error.empty()) {
            skip_ = ref.error;
            return;
        }
        pct_use_implementation(impl_.c_str());
        Reference mine = check_pass(op_, b);
        if (mine.digest != ref.digest) {
            skip_ = impl_ + ": WRONG OUTPUT: differs from the scalar implementation" +
                    first_difference(b);
            wrong_rows++;
            std::fprintf(stderr, "bench: %s: %s\n",
                         row_name(op_name_, dataset_, size_, impl_).c_str(), skip_.c_str());
        }
    }

    // Where the implementation first disagrees with scalar, for the report
    // (record by record; rare and untimed, so plain std::string buffers).
    std::string first_difference(const Batch &b)
    {
        for (size_t i = 0; i < b.records.size(); i++) {
            const Record &r = b.records[i];
            const char *src = b.input.data() + r.offset;
            std::string want(r.len * 3 + 64, '\0'), got(r.len * 3 + 64, '\0');
            pct_use_implementation("scalar");
            pct_result w = op_(src, r.len, &want[0]);
            pct_use_implementation(impl_.c_str());
            pct_result g = op_(src, r.len, &got[0]);
            bool same = w.status == g.status && w.count == g.count;
            if (same && Op::kWrites && w.status == PCT_OK)
                same = want.compare(0, w.count, got, 0, g.count) == 0;
            if (!same) {
                size_t at = 0;
                while (Op::kWrites && at < w.count && at < g.count && want[at] == got[at])
                    at++;
                return " (record " + std::to_string(i) + ", " + std::to_string(r.len) +
                       " bytes: status/count " + std::to_string(w.status) + "/" +
                       std::to_string(w.count) + " expected, " + std::to_string(g.status) + "/" +
                       std::to_string(g.count) + " got" +
                       (Op::kWrites ? ", first output difference at byte " + std::to_string(at)
                                    : std::string()) +
                       ")";
            }
        }
        return " (not reproduced record by record)";
    }

    std::string op_name_;
    Op op_;
    std::string dataset_;
    size_t size_;
    std::string impl_;
    bool checked_ = false;
    std::string skip_;
    size_t ref_out_bytes_ = 0;
};

// ---------------------------------------------------------------------------
// Baselines: memcpy of the same records, and a read-only pass over them.
// ---------------------------------------------------------------------------

// XOR of every 8-byte word: reads every byte once and does almost nothing
// else. The compiler vectorises the loop; on x86-64 it is built for the
// widest ISA the CPU has (target_clones), as glibc's memcpy is, so the
// baseline is not held back by the bench's baseline ISA flags.
#if defined(__x86_64__) && defined(__GNUC__) && defined(__ELF__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
uint64_t
read_pass(const char *p, size_t n)
{
    uint64_t acc = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        std::memcpy(&w, p + i, sizeof w);
        acc ^= w;
    }
    for (; i < n; i++)
        acc ^= static_cast<unsigned char>(p[i]);
    return acc;
}

class BaselineBench : public benchmark::Fixture {
  public:
    BaselineBench(const std::string &dataset, size_t size, bool copy)
        : dataset_(dataset), size_(size), copy_(copy)
    {
        SetName(row_name("baseline", dataset, size, copy ? "memcpy" : "read-only").c_str());
        Unit(benchmark::kMicrosecond);
    }

  protected:
    void BenchmarkCase(benchmark::State &state) override
    {
        const Batch &b = batch(dataset_, size_);
        const char *in = b.input.data();
        char *const out0 = scratch(b.total + 64);
        uint64_t acc = 0;
        if (copy_) {
            for (auto _ : state) {
                char *out = out0;
                for (const Record &r : b.records) {
                    std::memcpy(out, in + r.offset, r.len);
                    out += r.len;
                }
                benchmark::DoNotOptimize(out);
                benchmark::ClobberMemory();
            }
        } else {
            for (auto _ : state) {
                for (const Record &r : b.records)
                    acc += read_pass(in + r.offset, r.len);
                benchmark::DoNotOptimize(acc);
            }
        }
        state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                                static_cast<int64_t>(b.total));
        state.counters["rec_bytes"] = static_cast<double>(b.total) / b.records.size();
    }

  private:
    std::string dataset_;
    size_t size_;
    bool copy_;
};

// ---------------------------------------------------------------------------
// Registration
// ---------------------------------------------------------------------------

// The implementations a build for this architecture can have, best first, as
// in src/dispatch.c. Rows are registered for each of them even when this
// build or CPU lacks it (they then show as skipped, with the reason), and for
// any other name pct_implementation_name() reports (kernels added later).
const char *const kKnownImpls[] = {
#if defined(__x86_64__) || defined(__i386__)
    "avx512", "avx2", "sse42", "scalar", "neon-simde",
#elif defined(__aarch64__) || defined(__arm__)
    "neon",
    "scalar",
#else
    "scalar",
#endif
};

std::vector<std::string> implementations()
{
    std::vector<std::string> impls(std::begin(kKnownImpls), std::end(kKnownImpls));
    for (size_t i = 0; const char *name = pct_implementation_name(i); i++)
        if (std::find(impls.begin(), impls.end(), name) == impls.end())
            impls.push_back(name);
    return impls;
}

template <class Op>
void add_op(const std::string &name, std::function<Op(const std::string &)> make)
{
    op_checkers()[name] = [name, make](const Batch &b) { return check_pass(make(b.dataset), b); };
    static const std::vector<std::string> impls = implementations();
    for (const Case &c : cases(name))
        for (const std::string &impl : impls)
            benchmark::internal::RegisterBenchmarkInternal(
                new PctBench<Op>(name, make(c.dataset), c.dataset, c.size, impl));
}

template <class Op> void add_op(const std::string &name, const Op &op)
{
    add_op<Op>(name, [op](const std::string &) { return op; });
}

void register_benchmarks()
{
    for (const Case &c : all_cases()) {
        benchmark::internal::RegisterBenchmarkInternal(new BaselineBench(c.dataset, c.size, true));
        benchmark::internal::RegisterBenchmarkInternal(new BaselineBench(c.dataset, c.size, false));
    }

    add_op("encode-component", EncodeOp{&pct_set_component, 0});
    add_op("encode-path", EncodeOp{&pct_set_path, 0});
    add_op("encode-form", EncodeOp{&pct_set_form, PCT_PLUS});
    add_op("encode-rfc3986", EncodeOp{&pct_set_rfc3986, 0});
    add_op("encode-length", EncodeLengthOp{&pct_set_component});
    add_op("find", FindOp{&pct_set_component});
    add_op("decode", DecodeOp{0});
    add_op("decode-plus", DecodeOp{PCT_PLUS});
    add_op("decode-strict-utf8", DecodeOp{PCT_STRICT | PCT_UTF8});
    add_op("decode-except", DecodeExceptOp{&decode_uri_keep()});
    add_op("normalize", NormalizeOp{});
    add_op<ValidateOp>(
        "validate", [](const std::string &dataset) { return ValidateOp{validate_set(dataset)}; });
}

std::string compiler()
{
#if defined(__clang__)
    return "clang++ " __clang_version__;
#elif defined(__GNUC__)
    return "g++ " __VERSION__;
#else
    return "unknown";
#endif
}

} // namespace

const Reference &reference(const std::string &op, const Batch &b)
{
    static std::map<std::string, Reference> cache;
    const std::string key = row_name(op, b.dataset, b.size, "scalar");
    auto it = cache.find(key);
    if (it != cache.end())
        return it->second;
    auto checker = op_checkers().find(op);
    if (checker == op_checkers().end()) {
        std::fprintf(stderr, "bench: no operation %s\n", op.c_str());
        std::abort();
    }
    pct_use_implementation("scalar");
    return cache[key] = checker->second(b);
}

} // namespace pctbench

int main(int argc, char **argv)
{
    // First, before any pct_use_implementation(): what dispatch picks here.
    const std::string chosen = pct_implementation();
    std::string all;
    for (size_t i = 0; const char *name = pct_implementation_name(i); i++)
        all += (i ? "," : "") + std::string(name);

    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;

    benchmark::AddCustomContext("libpct_version", pct_version());
    benchmark::AddCustomContext("libpct_default_implementation", chosen);
    benchmark::AddCustomContext("libpct_implementations", all);
    benchmark::AddCustomContext("bench_compiler", pctbench::compiler());
    benchmark::AddCustomContext("bench_corpus_bytes", std::to_string(pctbench::kCorpusBytes));
    benchmark::AddCustomContext("bench_hot_bytes", std::to_string(pctbench::kHotBytes));
    // What each data set is, for the report (bench/report.py lists them).
    for (const pctbench::DatasetInfo &d : pctbench::datasets())
        benchmark::AddCustomContext(std::string("data:") + d.name, d.description);
    pctbench::register_benchmarks();
    pctbench::register_peer_benchmarks();

    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    if (pctbench::wrong_rows) {
        std::fprintf(stderr,
                     "bench: FAILED: %zu rows gave WRONG OUTPUT (differ from the scalar "
                     "implementation); they are marked in the report\n",
                     pctbench::wrong_rows);
        return 1;
    }
    return 0;
}
