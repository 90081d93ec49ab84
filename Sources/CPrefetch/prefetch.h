#ifndef HERALD_CPREFETCH_H
#define HERALD_CPREFETCH_H

/// Asks the processor to bring the cache line at `address` in for a read, without waiting
/// for it: a look-up a few steps ahead in a table too large for the caches finds its line
/// there. Only a hint: `address` is never dereferenced, and any address is allowed.
static inline void herald_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
