import Foundation

/// A random number generator for tests that is repeatable: SplitMix64 from a seed.
///
/// The seed comes from `HERALD_TEST_SEED` when set, else from the system, and is printed,
/// so a failure seen once can be run again with the same numbers.
public struct SeededGenerator: RandomNumberGenerator {
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        self.state = seed
    }

    /// A generator seeded from `HERALD_TEST_SEED` or the system; prints the seed with `label`.
    public init(printingSeedFor label: String) {
        let seed = ProcessInfo.processInfo.environment["HERALD_TEST_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: .min ... .max)
        print("\(label): HERALD_TEST_SEED=\(seed)")
        self.init(seed: seed)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
