// datasets.cc - deterministic benchmark data: request paths, query strings,
// UTF-8 text and access-log lines, raw (encoder input) and percent-encoded
// (decoder input).
#include "datasets.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <utility>

#include "pct.h"

namespace pctbench {

// Each stream holds at least this much: a whole batch of records of any size.
static constexpr size_t kStreamBytes = kCorpusBytes + 64 * 1024;

AlignedBuffer::AlignedBuffer(size_t size) : size_(size)
{
    // aligned_alloc wants a multiple of the alignment; never 0 bytes.
    size_t rounded = (size + 64) / 64 * 64;
    data_.reset(static_cast<char *>(std::aligned_alloc(64, rounded)));
    if (!data_) {
        std::fprintf(stderr, "bench: out of memory (%zu bytes)\n", rounded);
        std::abort();
    }
    std::memset(data_.get(), 0, rounded);
}

void AlignedBuffer::Free::operator()(char *p) const
{
    std::free(p);
}

namespace {

// splitmix64: small, fast, and the same on every platform and compiler.
class Rng {
  public:
    explicit Rng(uint64_t seed) : s_(seed) {}
    uint64_t next()
    {
        uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n) (n small: the modulo bias is negligible here).
    uint32_t below(uint32_t n)
    {
        return static_cast<uint32_t>(next() % n);
    }
    bool percent(uint32_t p)
    {
        return below(100) < p;
    }
    template <class T, size_t N> const T &pick(const T (&items)[N])
    {
        return items[below(static_cast<uint32_t>(N))];
    }

  private:
    uint64_t s_;
};

class Builder {
  public:
    UnitStream s;
    Builder()
    {
        s.cuts.push_back(0);
    }
    void unit(const char *p, size_t n)
    {
        s.bytes.append(p, n);
        s.cuts.push_back(static_cast<uint32_t>(s.bytes.size()));
    }
    // Each UTF-8 character of str (or each byte, if not UTF-8 lead) is a unit.
    void text(const std::string &str)
    {
        for (size_t i = 0; i < str.size();) {
            size_t n = utf8_len(static_cast<unsigned char>(str[i]));
            n = std::min(n, str.size() - i);
            unit(str.data() + i, n);
            i += n;
        }
    }
    // str percent-encoded with set (plus: a space becomes '+'), one unit per
    // character.
    void encoded(const std::string &str, const pct_set &set = pct_set_component, bool plus = false)
    {
        for (size_t i = 0; i < str.size();) {
            size_t n = utf8_len(static_cast<unsigned char>(str[i]));
            n = std::min(n, str.size() - i);
            std::string e = encode(str.substr(i, n), set, plus);
            unit(e.data(), e.size());
            i += n;
        }
    }
    size_t size() const
    {
        return s.bytes.size();
    }

    static size_t utf8_len(unsigned char lead)
    {
        return lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    }
    // A local encoder, so that the data never depends on the code under test
    // (only the set's table comes from the library).
    static std::string encode(const std::string &raw, const pct_set &set, bool plus)
    {
        static const char hex[] = "0123456789ABCDEF";
        std::string out;
        for (unsigned char c : raw) {
            if (plus && c == ' ') {
                out += '+';
            } else if (pct_set_contains(&set, c)) {
                out += '%';
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += static_cast<char>(c);
            }
        }
        return out;
    }
};

const char *const kWords[] = {
    "the",     "search",   "page",     "user",   "report",  "index",   "image",  "order",
    "summer",  "sale",     "shoes",    "red",    "blue",    "cheap",   "best",   "price",
    "london",  "weather",  "today",    "news",   "how",     "to",      "make",   "bread",
    "coffee",  "recipe",   "download", "free",   "video",   "music",   "api",    "v2",
    "account", "settings", "login",    "token",  "session", "id",      "filter", "sort",
    "date",    "2024",     "42",       "total",  "and",     "of",      "in",     "for",
    "with",    "from",     "open",     "source", "library", "encode",  "decode", "url",
    "query",   "string",   "value",    "name",   "email",   "address", "city",   "map",
};

// Non-ASCII words (UTF-8; this file is UTF-8): accented Latin, Greek,
// Cyrillic, CJK, Hangul, an emoji.
const char *const kUtf8Words[] = {
    "café",   "naïve",  "über", "größe", "señor",      "Zürich", "São Paulo", "αθήνα",
    "привет", "Москва", "東京", "北京",  "こんにちは", "한국어", "😀",         "crème brûlée",
};

const char *const kUserAgents[] = {
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 "
    "Safari/537.36",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like "
    "Gecko) Version/17.2 Mobile/15E148 Safari/604.1",
    "curl/7.88.1",
    "Googlebot/2.1 (+http://www.google.com/bot.html)",
    "python-requests/2.31.0",
};

std::string word(Rng &rng)
{
    return rng.percent(10) ? rng.pick(kUtf8Words) : rng.pick(kWords);
}

// Request-path text: segments of words, ids and file names joined by '/'.
// With escapes, one escaped character (its escapes are one unit) follows
// every 20-40 bytes of plain text, the density of real paths ("%2F" in an
// encoded id, "%20" in a file name, UTF-8 in a slug); without, the text is
// unreserved ASCII and '/', nothing to escape in a path.
UnitStream gen_path_text(uint64_t seed, bool escapes)
{
    static const char *const escaped[] = {"%2F",       "%20",       "%C3%A9", "%C3%BC",
                                          "%E2%82%AC", "%3A",       "%40",    "%2B",
                                          "%25",       "%E6%97%A5", "%2C",    "%D0%BC"};
    static const char *const exts[] = {".html", ".json", ".jpg", ".php", ".css", ".tar.gz"};
    Rng rng(seed);
    Builder b;
    uint32_t gap = 20 + rng.below(21), since = 0;
    auto plain = [&](const std::string &text) {
        for (char c : text) {
            b.unit(&c, 1);
            if (escapes && ++since >= gap) {
                const char *e = rng.pick(escaped);
                b.unit(e, std::strlen(e));
                since = 0;
                gap = 20 + rng.below(21);
            }
        }
    };
    while (b.size() < kStreamBytes) {
        uint32_t segments = 2 + rng.below(5);
        for (uint32_t i = 0; i < segments; i++) {
            plain("/");
            uint32_t r = rng.below(100);
            if (r < 20) {
                plain(std::to_string(rng.below(1000000)));
            } else {
                std::string seg = rng.pick(kWords);
                for (uint32_t w = rng.below(3); w > 0; w--)
                    seg += std::string(rng.percent(70) ? "-" : "_") + rng.pick(kWords);
                if (i + 1 == segments && r >= 80)
                    seg += rng.pick(exts);
                plain(seg);
            }
        }
    }
    return b.s;
}

// query-text: text to put in a query, words separated by spaces or
// &=?/:#+%" (about 10% of the words non-ASCII).
UnitStream gen_query_text()
{
    static const char *const seps[] = {"&", "=", "?", "/", ":", "#", "+", "%", "\"", ", "};
    Rng rng(2);
    Builder b;
    while (b.size() < kStreamBytes) {
        b.text(word(rng));
        b.text(rng.percent(65) ? " " : rng.pick(seps));
    }
    return b.s;
}

// query: form-encoded query strings (name=value&...; the form set, '+' for a
// space), values of one to four words, ~10% of them non-ASCII, some holding
// a reserved byte (%2F, %26, %3D, %3A, %2C, %40, %2B).
UnitStream gen_query()
{
    static const char *const keys[] = {"q",    "page", "id",      "lang",   "utm_source",
                                       "sort", "ref",  "session", "filter", "name"};
    static const char *const reserved[] = {"/", "&", "=", ":", ",", "@", "+"};
    Rng rng(7);
    Builder b;
    while (b.size() < kStreamBytes) {
        uint32_t params = 1 + rng.below(6);
        for (uint32_t i = 0; i < params; i++) {
            b.text(i == 0 ? "?" : "&");
            b.text(rng.pick(keys));
            b.text("=");
            std::string value = word(rng);
            for (uint32_t w = rng.below(4); w > 0; w--)
                value += std::string(rng.percent(10) ? rng.pick(reserved) : " ") + word(rng);
            b.encoded(value, pct_set_form, true);
        }
    }
    return b.s;
}

// utf8-text: prose in hiragana, katakana and kanji with Japanese
// punctuation; every character is 3 UTF-8 bytes, so every byte is escaped.
UnitStream gen_utf8_text()
{
    // Common kanji, hiragana and katakana (UTF-8, 3 bytes each).
    static const char kanji[] = "日本語人年大中国学生時間会社事自分私今後前気手話場合何地方"
                                "東京都市道長出行見言思来食書読新古高安電車駅店円"
                                "山川空雨天花海朝夜春夏秋冬家族友子供女男先";
    static const char hira[] =
        "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほ"
        "まみむめもやゆよらりるれろわをんがぎぐげござじずぜぞだでどばびぶべぼ"
        "っゃゅょ";
    static const char kata[] = "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホ"
                               "マミムメモヤユヨラリルレロワンガギグゲゴパピプペポー";
    static const char *const particles[] = {"は", "が", "を", "に", "で", "と", "の", "も"};
    Rng rng(3);
    Builder b;
    auto chars = [&](const char *set, size_t setbytes, uint32_t n) {
        for (uint32_t i = 0; i < n; i++)
            b.unit(set + 3 * rng.below(static_cast<uint32_t>(setbytes / 3)), 3);
    };
    while (b.size() < kStreamBytes) {
        uint32_t phrases = 2 + rng.below(5);
        for (uint32_t p = 0; p < phrases; p++) {
            if (rng.percent(15))
                chars(kata, sizeof kata - 1, 2 + rng.below(5));
            else
                chars(kanji, sizeof kanji - 1, 1 + rng.below(3));
            b.text(rng.pick(particles));
            chars(hira, sizeof hira - 1, rng.below(4));
            if (p + 1 < phrases && rng.percent(40))
                b.text("、");
        }
        b.text(rng.percent(85) ? "。" : "「です」。");
    }
    return b.s;
}

// raw encoded with pct_set_component, unit by unit.
UnitStream encode_stream(const UnitStream &raw)
{
    Builder b;
    for (size_t i = 0; i + 1 < raw.cuts.size(); i++) {
        std::string unit = raw.bytes.substr(raw.cuts[i], raw.cuts[i + 1] - raw.cuts[i]);
        std::string e = Builder::encode(unit, pct_set_component, false);
        b.unit(e.data(), e.size());
    }
    return b.s;
}

// log-lines: combined-format access-log lines of ~200 bytes whose request
// targets (path + query) and referers are percent-encoded; the rest is
// printable ASCII with no '%'. Each line (with its '\n') is one unit, so a
// record is one line or several whole lines.
UnitStream gen_log_lines()
{
    static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    static const char *const exts[] = {"", "", "", ".html", ".php", ".jpg", ".css", ".json"};
    static const char *const keys[] = {"q",    "page", "id",         "lang",    "utm_source",
                                       "sort", "ref",  "session_id", "filter[]"};
    static const int statuses[] = {200, 200, 200, 200, 200, 301, 302, 304, 404, 500};
    Rng rng(5);
    Builder b;
    char buf[160];
    auto target = [&](bool with_query) {
        uint32_t segments = 1 + rng.below(4);
        for (uint32_t i = 0; i < segments; i++) {
            b.text("/");
            std::string seg = word(rng);
            if (rng.percent(15))
                seg += " " + word(rng); // an encoded space: %20
            b.encoded(seg);
        }
        b.text(rng.pick(exts));
        if (!with_query || rng.percent(40))
            return;
        uint32_t params = 1 + rng.below(3);
        for (uint32_t i = 0; i < params; i++) {
            b.text(i == 0 ? "?" : "&");
            b.encoded(rng.pick(keys));
            b.text("=");
            uint32_t words = 1 + rng.below(4);
            for (uint32_t w = 0; w < words; w++) {
                if (w > 0 && rng.percent(70))
                    b.text("+");
                else if (w > 0)
                    b.unit("%20", 3); // one unit: never split
                std::string v = word(rng);
                if (rng.percent(8))
                    v += rng.percent(50) ? "/" : "&"; // %2F, %26
                b.encoded(v);
            }
        }
    };
    while (b.size() < kStreamBytes) {
        std::snprintf(buf, sizeof buf, "%u.%u.%u.%u - %s [%02u/%s/2024:%02u:%02u:%02u +0000] \"%s ",
                      10 + rng.below(200), rng.below(256), rng.below(256), 1 + rng.below(254),
                      rng.percent(90) ? "-" : "alice", 1 + rng.below(28), rng.pick(months),
                      rng.below(24), rng.below(60), rng.below(60),
                      rng.percent(85)   ? "GET"
                      : rng.percent(70) ? "POST"
                                        : "HEAD");
        b.text(buf);
        target(true);
        std::snprintf(buf, sizeof buf, " HTTP/1.1\" %d %u \"", rng.pick(statuses),
                      rng.below(200000));
        b.text(buf);
        if (rng.percent(80)) {
            b.text("-");
        } else {
            b.text("https://www.example.com");
            target(true);
        }
        b.text("\" \"");
        b.text(rng.pick(kUserAgents));
        b.text("\"\n");
    }
    UnitStream lines;
    lines.bytes = std::move(b.s.bytes);
    lines.cuts.push_back(0);
    for (size_t i = 0; i < lines.bytes.size(); i++)
        if (lines.bytes[i] == '\n')
            lines.cuts.push_back(static_cast<uint32_t>(i + 1));
    return lines;
}

struct StreamSet {
    std::map<std::string, UnitStream> streams;
    StreamSet()
    {
        streams["clean-paths"] = gen_path_text(1, false);
        streams["query-text"] = gen_query_text();
        streams["utf8-text"] = gen_utf8_text();
        streams["paths"] = gen_path_text(6, true);
        streams["query"] = gen_query();
        streams["utf8-escaped"] = encode_stream(streams["utf8-text"]);
        streams["log-lines"] = gen_log_lines();
    }
};

const UnitStream &stream(const std::string &name)
{
    static const StreamSet set;
    auto it = set.streams.find(name);
    if (it == set.streams.end()) {
        std::fprintf(stderr, "bench: unknown data set %s\n", name.c_str());
        std::abort();
    }
    return it->second;
}

} // namespace

size_t batch_bytes(size_t record_size)
{
    return record_size != kLine && record_size < 1024 ? kHotBytes : kCorpusBytes;
}

std::string size_label(size_t size)
{
    return size == kLine ? "line" : std::to_string(size);
}

const std::vector<DatasetInfo> &datasets()
{
    static const std::vector<DatasetInfo> list = {
        {"clean-paths",
         "request paths of words, ids and file names: unreserved ASCII and '/' only"},
        {"query-text", "text for a query: words, spaces, &=?/:#+%\", ~10% non-ASCII words"},
        {"utf8-text", "Japanese prose in UTF-8: every byte escaped on encode"},
        {"paths",
         "request paths with one escaped character (%2F, %20, %C3%A9, ...) every 20-40 bytes"},
        {"query",
         "form-encoded query strings: name=value&..., '+' for space, UTF-8 and reserved escapes"},
        {"utf8-escaped", "utf8-text with every byte escaped (%E6%97%A5...)"},
        {"log-lines",
         "combined-format access-log lines of ~200 bytes, request targets percent-encoded"},
    };
    return list;
}

const Batch &batch(const std::string &name, size_t size)
{
    static std::map<std::pair<std::string, size_t>, std::unique_ptr<Batch>> cache;
    std::unique_ptr<Batch> &slot = cache[{name, size}];
    if (slot)
        return *slot;

    const UnitStream &s = stream(name);
    for (const DatasetInfo &d : datasets())
        if (name == d.name) {
            slot.reset(new Batch());
            slot->dataset = d.name;
        }
    Batch &b = *slot;
    b.size = size;
    size_t pos = 0;
    // Another record while a full-size one still fits in the batch budget
    // (kLine: while the batch is not full).
    const size_t room = size == kLine ? 1 : size;
    while (b.records.empty() || b.total + room <= batch_bytes(size)) {
        // The longest record from pos that ends on a unit boundary within
        // size; kLine: the unit that starts at pos.
        size_t end = pos;
        if (size != kLine) {
            end = *(std::upper_bound(s.cuts.begin(), s.cuts.end(), pos + size) - 1);
        } else {
            auto next = std::upper_bound(s.cuts.begin(), s.cuts.end(), pos);
            if (next != s.cuts.end())
                end = *next;
        }
        if (end <= pos) {
            std::fprintf(stderr, "bench: %s: a unit is longer than %zu bytes\n", name.c_str(),
                         size);
            std::abort();
        }
        if (end == s.bytes.size() && !b.records.empty())
            break;
        b.records.push_back({pos, end - pos});
        b.total += end - pos;
        pos = end;
    }
    b.input = AlignedBuffer(b.total);
    std::memcpy(b.input.data(), s.bytes.data(), b.total);
    b.has_nul = std::memchr(b.input.data(), 0, b.total) != nullptr;
    return b;
}

} // namespace pctbench
