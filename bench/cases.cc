// cases.cc - which data sets and record sizes each operation is measured on
// (libpct and its peers alike), and so which memcpy baselines the run needs.
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common.h"

namespace pctbench {
namespace {

constexpr size_t k64K = 64 * 1024;
constexpr size_t k1M = 1024 * 1024;

// Long records: the throughput rows.
const std::vector<size_t> kLong = {k64K, k1M};
// One call per short string (ns per call in the report), a medium size for
// the plot, then the long records.
const std::vector<size_t> kSweep = {24, 48, 96, 1024, k64K, k1M};
// One call per log line, then long records of whole lines.
const std::vector<size_t> kLines = {kLine, k64K, k1M};

// op -> (data set -> record sizes). Decode reads the encoded data sets,
// encode (and length, find) the raw ones.
const std::map<std::string, std::vector<std::pair<std::string, std::vector<size_t>>>> &table()
{
    static const std::map<std::string, std::vector<std::pair<std::string, std::vector<size_t>>>> t =
        {
            {"decode",
             {{"paths", kSweep},
              {"query", kSweep},
              {"utf8-escaped", kSweep},
              {"log-lines", kLines}}},
            {"decode-plus", {{"query", kLong}}},
            {"decode-strict-utf8",
             {{"paths", kLong}, {"query", kLong}, {"utf8-escaped", kLong}, {"log-lines", kLines}}},
            {"decode-except", {{"paths", {k64K}}, {"query", {k64K}}}},
            {"normalize", {{"paths", {k64K}}, {"query", {k64K}}}},
            {"validate",
             {{"paths", kLong}, {"query", kLong}, {"utf8-escaped", kLong}, {"log-lines", kLong}}},
            {"encode-component",
             {{"clean-paths", kSweep}, {"query-text", kSweep}, {"utf8-text", kSweep}}},
            {"encode-path", {{"clean-paths", kLong}}},
            {"encode-rfc3986",
             {{"clean-paths", kLong}, {"query-text", kLong}, {"utf8-text", kLong}}},
            {"encode-form", {{"query-text", {k64K}}}},
            {"encode-length",
             {{"clean-paths", kLong}, {"query-text", kLong}, {"utf8-text", kLong}}},
            {"find", {{"clean-paths", kLong}, {"query-text", kLong}}},
        };
    return t;
}

} // namespace

std::vector<Case> cases(const std::string &op)
{
    std::vector<Case> out;
    auto it = table().find(op);
    if (it == table().end())
        return out;
    for (const auto &ds : it->second)
        for (size_t size : ds.second)
            out.push_back({ds.first, size});
    return out;
}

std::vector<Case> all_cases()
{
    std::set<std::pair<std::string, size_t>> seen;
    std::vector<Case> out;
    for (const auto &op : table())
        for (const Case &c : cases(op.first))
            if (seen.insert({c.dataset, c.size}).second)
                out.push_back(c);
    return out;
}

} // namespace pctbench
