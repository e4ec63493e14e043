// cudalint confirm mode: what device code takes from the C library headers NVRTC does not have
// (<stdint.h>, <float.h>, <limits.h>, <math.h>, <assert.h>, <stddef.h>); those includes are dropped
// from the NVRTC copy. Where this is not enough, confirm mode compiles with nvcc and the real headers.
#ifndef CUDALINT_NVRTC_STD
#define CUDALINT_NVRTC_STD
typedef decltype(sizeof(0)) size_t;
typedef decltype((char*)0 - (char*)0) ptrdiff_t;
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
typedef long long intptr_t;
typedef unsigned long long uintptr_t;
typedef long long intmax_t;
typedef unsigned long long uintmax_t;
namespace std {
using ::size_t; using ::ptrdiff_t; using ::int8_t; using ::uint8_t; using ::int16_t; using ::uint16_t;
using ::int32_t; using ::uint32_t; using ::int64_t; using ::uint64_t; using ::intptr_t; using ::uintptr_t;
}
#ifndef INT8_MAX
#define INT8_MIN (-128)
#define INT8_MAX 127
#define UINT8_MAX 255
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define UINT16_MAX 65535
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295u
#define INT64_MIN (-9223372036854775807ll - 1)
#define INT64_MAX 9223372036854775807ll
#define UINT64_MAX 18446744073709551615ull
#define SIZE_MAX UINT64_MAX
#endif
#ifndef CHAR_BIT
#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295u
#define LONG_MIN (-9223372036854775807l - 1)
#define LONG_MAX 9223372036854775807l
#define ULONG_MAX 18446744073709551615ul
#define LLONG_MIN (-9223372036854775807ll - 1)
#define LLONG_MAX 9223372036854775807ll
#define ULLONG_MAX 18446744073709551615ull
#endif
#ifndef FLT_MAX
#define FLT_MAX 3.402823466e+38f
#define FLT_MIN 1.175494351e-38f
#define FLT_EPSILON 1.192092896e-07f
#define FLT_DIG 6
#define FLT_MANT_DIG 24
#define FLT_RADIX 2
#define DBL_MAX 1.7976931348623158e+308
#define DBL_MIN 2.2250738585072014e-308
#define DBL_EPSILON 2.2204460492503131e-16
#define DBL_DIG 15
#define DBL_MANT_DIG 53
#endif
#ifndef INFINITY
#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
#define HUGE_VALF INFINITY
#define HUGE_VAL (__longlong_as_double(0x7ff0000000000000ll))
#endif
#ifndef M_PI
#define M_E 2.71828182845904523536
#define M_LN2 0.69314718055994530942
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#endif
#ifndef assert
#define assert(e) ((void)0)
#endif
#ifndef NULL
#define NULL 0
#endif
#endif
