extension ContinuousClock.Instant {
    /// Milliseconds from `now` until this instant, for poll's timeout: one more than whole,
    /// so that poll never wakes just before it, and 1 once it has passed.
    package func pollTimeoutMilliseconds(from now: ContinuousClock.Instant = .now) -> Int32 {
        Int32(clamping: Int(max(.zero, self - now) / .milliseconds(1)) + 1)
    }
}
