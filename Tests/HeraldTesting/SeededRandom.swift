import Foundation

/// A random number generator that a test can replay: SplitMix64 from a seed that is
/// printed, taken from `HERALD_TEST_SEED` when set (to rerun a failure), else fresh.
package struct SeededRandom: RandomNumberGenerator, Sendable {
    package let seed: UInt64
    private var state: UInt64

    /// A generator for the test `name`; prints `name: seed N (HERALD_TEST_SEED=N replays it)`.
    package init(for name: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let seed = environment["HERALD_TEST_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        self.init(seed: seed)
        print("\(name): seed \(seed) (HERALD_TEST_SEED=\(seed) replays it)")
    }

    package init(seed: UInt64) {
        self.seed = seed
        self.state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
