// common.h - what the libpct fixtures (bench_pct.cc) and the peer fixtures
// (peers.cc) share: naming, the scratch output buffer, and the correctness
// check every row passes before it is timed.
#ifndef PCT_BENCH_COMMON_H
#define PCT_BENCH_COMMON_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "datasets.h"
#include "pct.h"

namespace pctbench {

// Rows are named "<op>/<data set>/<record size>/<implementation>", e.g.
// "decode/paths/65536/avx2", "encode-rfc3986/query-text/65536/curl",
// "decode/log-lines/line/scalar", "baseline/query/96/memcpy".
// bench/report.py splits on '/'.
std::string row_name(const std::string &op, const std::string &dataset, size_t size,
                     const std::string &impl);

// A data set and a record size (or kLine) an operation is measured on.
struct Case {
    std::string dataset;
    size_t size;
};

// The cases of op ("decode", "encode-component", ...; cases.cc), for libpct
// and for the peers of op; all_cases(): those of every operation, once each
// (the memcpy baselines).
std::vector<Case> cases(const std::string &op);
std::vector<Case> all_cases();

// One output buffer for every row (the benchmark is single-threaded): large
// enough for 3x the largest batch, allocated and touched once, so no timed
// loop ever page-faults on its output.
char *scratch(size_t bytes);

// A digest of a pass over a batch: each record's status and count, and the
// bytes written when the call succeeded (FNV-1a, 64 bits).
class Digest {
  public:
    void add(const void *p, size_t n)
    {
        const unsigned char *b = static_cast<const unsigned char *>(p);
        for (size_t i = 0; i < n; i++)
            h_ = (h_ ^ b[i]) * 0x100000001B3ull;
    }
    void add_result(pct_status status, size_t count)
    {
        uint64_t v[2] = {static_cast<uint64_t>(status), static_cast<uint64_t>(count)};
        add(v, sizeof v);
    }
    uint64_t value() const
    {
        return h_;
    }

  private:
    uint64_t h_ = 0xCBF29CE484222325ull;
};

// The result of the scalar implementation on a workload: what every other
// implementation and every peer must reproduce before it is timed.
struct Reference {
    uint64_t digest = 0;
    size_t out_bytes = 0;
    std::string error; // non-empty: the workload itself fails (e.g. not UTF-8)
};

// The scalar reference for op (a libpct row name such as "decode") on a batch;
// computed once per workload (switches the implementation to "scalar").
const Reference &reference(const std::string &op, const Batch &batch);

// Registers the peer rows (curl, uriparser, GLib: whichever were built in)
// and adds their versions to the report's context.
void register_peer_benchmarks();

} // namespace pctbench

#endif
