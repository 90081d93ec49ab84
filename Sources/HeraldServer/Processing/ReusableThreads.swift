import NIOConcurrencyHelpers
import Synchronization

/// Threads for requests placed on a thread of their own at normal priority, kept after
/// their work for the next request: a new thread for each call cost a short
/// `list-notifications` about twice the time of the call itself.
///
/// Never a queue: a request takes a parked thread, or starts a new one when none is parked,
/// so no request waits for another's, one uid's for another uid's least of all (as with a
/// thread per request, the threads are bounded by the connections, each of which waits for
/// its reply before it reads on). A thread parks for `keepFor` after its work, then ends.
package final class ReusableThreads: Sendable {
    /// The threads `list-notifications` and a large `delete-interactions` run on.
    package static let requests = ReusableThreads(named: "herald-request")

    private let name: String
    private let keepFor: Double
    private let parked = Mutex<[ParkedThread]>([])

    package init(named name: String, keepFor seconds: Double = 10) {
        self.name = name
        self.keepFor = seconds
    }

    /// How many threads wait for work now.
    package var parkedCount: Int { parked.withLock { $0.count } }

    /// Runs `body` on a parked thread, or on a new one.
    package func run(_ body: @escaping @Sendable () -> Void) {
        if let thread = parked.withLock({ $0.popLast() }) {
            thread.hand(body)
        } else {
            let slot = ParkedThread()
            slot.hand(body)
            WorkThread.run(named: name, priority: .normal) { self.serve(slot) }
        }
    }

    /// Does the work handed to `slot`, then parks; ends after `keepFor` with none.
    private func serve(_ slot: ParkedThread) {
        while true {
            do {
                // Released at the end of this scope: a parked thread keeps nothing of the
                // request it answered (its connection, its handler).
                let work = slot.take()
                work()
            }
            parked.withLock { $0.append(slot) }
            if slot.waitForWork(atMost: keepFor) { continue }
            // Unless a request took this thread just as it gave up (its work is then on the
            // way, and take() waits for it), it leaves the list and ends.
            let left = parked.withLock { threads in
                guard let index = threads.firstIndex(where: { $0 === slot }) else { return false }
                threads.remove(at: index)
                return true
            }
            if left { return }
        }
    }
}

/// Where work is handed to a thread.
private final class ParkedThread: Sendable {
    /// 1 when work waits in `work`.
    private let handed = ConditionLock(value: 0)
    private let work = Mutex<(@Sendable () -> Void)?>(nil)

    func hand(_ body: @escaping @Sendable () -> Void) {
        handed.lock()
        work.withLock { $0 = body }
        handed.unlock(withValue: 1)
    }

    /// Whether work was handed within `seconds`; it stays for ``take()``.
    func waitForWork(atMost seconds: Double) -> Bool {
        guard handed.lock(whenValue: 1, timeoutSeconds: seconds) else { return false }
        handed.unlock(withValue: 1)
        return true
    }

    /// The work handed, after waiting for it as long as it takes.
    func take() -> @Sendable () -> Void {
        handed.lock(whenValue: 1)
        let body = work.withLock { work in
            defer { work = nil }
            return work!
        }
        handed.unlock(withValue: 0)
        return body
    }
}
