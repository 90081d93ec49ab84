#ifndef HERALD_CCRC32C_H
#define HERALD_CCRC32C_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>

/// Whether the processor has SSE4.2's crc32 instruction (CPUID leaf 1, ECX bit 20).
static inline int herald_crc32c_hardware_available(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    return (ecx & bit_SSE4_2) != 0;
}

/// Continues CRC-32C `crc` (pre- and post-inverted by the caller) over `count` bytes with
/// SSE4.2's crc32 instruction, eight bytes at a time. Call it only when
/// herald_crc32c_hardware_available() says so.
__attribute__((target("sse4.2")))
static inline uint32_t herald_crc32c_hardware(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *p = (const unsigned char *)bytes;
    uint64_t wide = crc;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        wide = __builtin_ia32_crc32di(wide, word);
        p += 8;
        count -= 8;
    }
    uint32_t narrow = (uint32_t)wide;
    while (count > 0) {
        narrow = __builtin_ia32_crc32qi(narrow, *p);
        p += 1;
        count -= 1;
    }
    return narrow;
}
#else
static inline int herald_crc32c_hardware_available(void) { return 0; }
static inline uint32_t herald_crc32c_hardware(uint32_t crc, const void *bytes, size_t count) {
    (void)bytes; (void)count;
    return crc;
}
#endif
#endif
