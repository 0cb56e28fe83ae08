// header_cpp.cc - pct.h compiled as C++ (see test_header.c): it must be
// clean under -Wall -Wextra -Wpedantic, usable from C++, with the same layout.
#include <cstddef>
#include <cstring>

#include "pct.h"

#include "header_abi.h"

static_assert(PCT_VERSION_NUMBER >= PCT_MAKE_VERSION(0, 1, 0), "version macros");
static_assert(sizeof(pct_set) == 32, "pct_set is 256 bits");
static_assert(PCT_OK == 0, "PCT_OK is 0");

extern "C" int header_cpp_roundtrip(void);
extern "C" void header_cpp_layout(std::size_t out[HEADER_ABI_N]);

int header_cpp_roundtrip(void)
{
    char enc[32], dec[32];
    pct_set s = pct_set_rfc3986;
    pct_set_remove_chars(&s, "/");
    pct_result r = pct_encode("/a b", 4, enc, &s, PCT_PLUS);
    if (r.status != PCT_OK || r.count != 4 || std::memcmp(enc, "/a+b", 4) != 0)
        return 0;
    pct_decoder d;
    if (pct_decoder_init(&d, nullptr, PCT_PLUS) != PCT_OK)
        return 0;
    pct_result u = pct_decoder_update(&d, enc, r.count, dec);
    pct_result f = pct_decoder_finish(&d, dec + u.count);
    return u.status == PCT_OK && f.status == PCT_OK && u.count + f.count == 4 &&
           std::memcmp(dec, "/a b", 4) == 0 && pct_status_string(PCT_OK) != nullptr;
}

void header_cpp_layout(std::size_t out[HEADER_ABI_N])
{
    HEADER_ABI_FILL(out);
}
