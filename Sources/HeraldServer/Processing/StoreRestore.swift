import NIOConcurrencyHelpers
import Synchronization

/// Whether the interactions and notifications of the snapshot heraldd started from are in
/// the state yet. At start heraldd answers the methods that need neither
/// (`HeraldMethod.needsStore`) while a large store restores on a thread of its own; a
/// request that needs it waits on a thread, never on an event loop, until ``finish()``.
///
/// Finishes once and stays finished. A state made whole (a start with nothing restored
/// apart, every test that does not say otherwise) is finished from the beginning.
package final class StoreRestore: Sendable {
    /// Read on the event loop for each request: one load.
    private let done: Synchronization.Atomic<Bool>
    /// 1 once finished: what ``wait()`` sleeps on.
    private let condition: ConditionLock<Int>
    private let callbacks = Mutex<[@Sendable () -> Void]?>([])

    package init(isFinished: Bool = true) {
        done = Synchronization.Atomic(isFinished)
        condition = ConditionLock(value: isFinished ? 1 : 0)
        if isFinished { callbacks.withLock { $0 = nil } }
    }

    /// True once the store is restored and what fell due meanwhile is done.
    package var isFinished: Bool { done.load(ordering: .acquiring) }

    /// Marks the store restored: wakes the threads in ``wait()`` and runs the callbacks of
    /// ``whenFinished(_:)`` on this thread.
    package func finish() {
        let waiting = callbacks.withLock { callbacks in
            defer { callbacks = nil }
            return callbacks ?? []
        }
        condition.lock()
        done.store(true, ordering: .releasing)
        condition.unlock(withValue: 1)
        for callback in waiting { callback() }
    }

    /// Returns once the store is restored; at once when it is. Blocks the calling thread:
    /// never call it on an event loop.
    package func wait() {
        guard !isFinished else { return }
        condition.lock(whenValue: 1)
        condition.unlock()
    }

    /// Runs `callback` once the store is restored: at once, on this thread, when it is.
    package func whenFinished(_ callback: @escaping @Sendable () -> Void) {
        let later = callbacks.withLock { callbacks -> Bool in
            guard callbacks != nil else { return false }
            callbacks!.append(callback)
            return true
        }
        if !later { callback() }
    }

    /// Returns once the store is restored.
    package func finished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            whenFinished { continuation.resume() }
        }
    }
}
