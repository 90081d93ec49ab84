/// Runs `work(0)` … `work(count - 1)` at once and returns when every one is done: how a
/// snapshot encodes and restores its record chunks, and a restart stores a run of
/// donations, on several threads — the caller's threads, since the rules have none of
/// their own (HeraldStorage's `runOnEveryCore`, HeraldServer's `WorkThread`).
package typealias ParallelWork = @Sendable (_ count: Int, _ work: @escaping @Sendable (Int) -> Void) -> Void
