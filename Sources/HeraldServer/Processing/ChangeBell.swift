import Synchronization

/// Wakes the task that waits for the state to change: the snapshot writer, asleep at rest
/// until there is something to write (docs/operations.md, "At rest").
///
/// ``SharedState`` rings it after each change; with no one waiting that costs one atomic
/// load. Anything else that should wake the waiter (a write of the state that failed, so
/// that its retries begin) rings it too.
package final class ChangeBell: Sendable {
    private let waiter = Mutex<CheckedContinuation<Void, Never>?>(nil)
    private let isAwaited = Atomic<Bool>(false)

    package init() {}

    /// Wakes the waiter, if any.
    package func ring() {
        guard isAwaited.load(ordering: .sequentiallyConsistent) else { return }
        let waiting = waiter.withLock { waiter -> CheckedContinuation<Void, Never>? in
            isAwaited.store(false, ordering: .sequentiallyConsistent)
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume()
    }

    /// Returns at the next ring, at once when `hasChanged` (read after the waiter is known,
    /// under the state's lock) says the change came already, or at cancellation. One waiter
    /// at a time.
    package func wait(unless hasChanged: () -> Bool) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = waiter.withLock { waiter -> Bool in
                    // Known before the look: a change after the look rings.
                    isAwaited.store(true, ordering: .sequentiallyConsistent)
                    guard !hasChanged(), !Task.isCancelled else {
                        isAwaited.store(false, ordering: .sequentiallyConsistent)
                        return false
                    }
                    waiter = continuation
                    return true
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            // Rung regardless of the flag: the waiter may be between the flag and the look.
            let waiting = waiter.withLock { waiter -> CheckedContinuation<Void, Never>? in
                isAwaited.store(false, ordering: .sequentiallyConsistent)
                defer { waiter = nil }
                return waiter
            }
            waiting?.resume()
        }
    }
}
