// datasets.h - the benchmark's input data, generated deterministically.
//
// Every data set is a stream of "units" that a record may not split: a byte,
// a UTF-8 character, the escapes of one character ("%E3%81%82"), or a whole
// log line. Records
// of a nominal size S are consecutive slices of the stream, each as long as
// possible without exceeding S or splitting a unit, so every record is a
// complete string (valid UTF-8 where the data is, whole escapes). A batch is
// the records from offset 0 on, as many as fit in batch_bytes(S) (at least
// one). One benchmark iteration processes the whole batch, so short records
// are many different strings, not one string repeated. Records of 1 KiB and
// more, and log lines, are cut from an 8 MiB corpus, larger than this CPU's
// L2, as a log processor streams its data (memcpy of the same records is
// measured the same way); the short strings of the ns-per-call rows from
// 64 KiB, cache-resident, as a proxy handles the request it just read.
#ifndef PCT_BENCH_DATASETS_H
#define PCT_BENCH_DATASETS_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pctbench {

// Bytes processed per iteration: the corpus (kCorpusBytes) cut into records
// of the given size, or kHotBytes of short strings.
constexpr size_t kCorpusBytes = 8 * 1024 * 1024;
constexpr size_t kHotBytes = 64 * 1024;
size_t batch_bytes(size_t record_size);

// The record "size" that makes each unit of the stream one record: one call
// per log line (the log-lines data set's units are whole lines). Rows name
// it "line".
constexpr size_t kLine = 0;

// "line" for kLine, else the size in bytes: the record-size part of a row name.
std::string size_label(size_t size);

// A byte buffer aligned to 64 bytes (std::vector gives no alignment).
class AlignedBuffer {
  public:
    AlignedBuffer() = default;
    explicit AlignedBuffer(size_t size);
    char *data() const
    {
        return data_.get();
    }
    size_t size() const
    {
        return size_;
    }

  private:
    struct Free {
        void operator()(char *p) const;
    };
    std::unique_ptr<char, Free> data_;
    size_t size_ = 0;
};

struct UnitStream {
    std::string bytes;
    std::vector<uint32_t> cuts; // unit boundaries: 0, ..., bytes.size()
};

struct Record {
    size_t offset; // in Batch::input
    size_t len;
};

struct Batch {
    const char *dataset;
    size_t size; // nominal record size S, or kLine
    AlignedBuffer input;
    size_t total = 0; // sum of the record lengths
    std::vector<Record> records;
    bool has_nul = false; // some record contains a 0 byte
};

// The data sets: three raw ones (encoder input) and four encoded ones
// (decoder input), each modelled on what libpct is used for (datasets.cc).
struct DatasetInfo {
    const char *name;
    const char *description;
};
const std::vector<DatasetInfo> &datasets();

// The batch of data set `name` for record size `size` (built on first use).
const Batch &batch(const std::string &name, size_t size);

} // namespace pctbench

#endif
