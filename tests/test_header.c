/* test_header.c - pct.h from three languages: this C11 file, a C99
 * -pedantic-errors one and (when a C++ compiler is found) a C++ one. Each
 * calls the library and reports the layout of the header's types, which must
 * agree. */
#include <stddef.h>

#include "check.h"
#include "header_abi.h"
#include "pct.h"

int header_c99_roundtrip(void);
void header_c99_layout(size_t out[HEADER_ABI_N]);
#ifdef PCT_TEST_HAVE_CPP
int header_cpp_roundtrip(void);
void header_cpp_layout(size_t out[HEADER_ABI_N]);
#endif

int main(void)
{
    size_t c11[HEADER_ABI_N], other[HEADER_ABI_N];
    HEADER_ABI_FILL(c11);
    check_input(NULL, 0, "C99");
    CHECK(header_c99_roundtrip());
    header_c99_layout(other);
    CHECK_MEM(c11, sizeof c11, other, sizeof other);
#ifdef PCT_TEST_HAVE_CPP
    check_input(NULL, 0, "C++");
    CHECK(header_cpp_roundtrip());
    header_cpp_layout(other);
    CHECK_MEM(c11, sizeof c11, other, sizeof other);
    printf("C11, C99 and C++ agree\n");
#else
    printf("no C++ compiler: C11 and C99 only\n");
#endif
    return check_done();
}
