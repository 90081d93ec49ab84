import Glibc

/// Nanoseconds from `CLOCK_MONOTONIC`: cheap enough to read once per read() of answers.
enum MonotonicClock {
    static var now: UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
