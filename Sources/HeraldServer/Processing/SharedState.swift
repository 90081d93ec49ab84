import FoundationEssentials
import HeraldCore
import HeraldProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Herald's state, shared by every connection behind one lock.
///
/// Handlers hold the lock only for the rule itself: params are decoded before and
/// results encoded after, outside it.
///
/// Each `withLock` counts as a change, so that the snapshot writer can tell whether
/// anything happened since its last snapshot; reads that change nothing use `read`.
package final class SharedState: Sendable {
    private struct Guarded: Sendable {
        var state: HeraldState
        /// Calls that could have changed `state`.
        var changes: UInt64 = 0
    }

    private let box: AdaptiveLockedValue<Guarded>
    /// When the current hold of the lock began, in nanoseconds of the monotonic clock; 0
    /// while the lock is free. Read without the lock by the watchdog (``heldFor``).
    private let holdBegan = Atomic<UInt64>(0)
    /// How many uids have a gateway holding grants (``HeraldState/grantHolderCount``), as
    /// of the last hold of the lock: read without the lock by every change
    /// (``hasGrantHolders``).
    private let grantHolders = Atomic<Int>(0)
    /// Lists a reader held that a change copied after the lock (``withLock(unsharingListOf:_:)``).
    private let listsCopiedAfterTheLock = Atomic<Int>(0)

    /// Given each request's change (``PendingChange``) under the lock, after the first hold
    /// that changed the state: the change log's append. Nil without a change log.
    private let changeSink: (@Sendable (PendingChange) -> Void)?
    /// Given the current request's change before the lock (``prepareChangeRecord()``): the
    /// change log encodes there what it can of the record, so the sink under the lock has
    /// less to do. Nil without a change log.
    private let changePreparer: (@Sendable (PendingChange) -> Void)?

    /// Told, after each change, when the next thing kept in the state falls due
    /// (``HeraldState/nextStoredDue``): the daemon's sleep ends early for one due sooner.
    package let dueAlarm = DueAlarm()
    /// Rung after each change: the snapshot writer waits on it at rest.
    package let changeBell: ChangeBell
    /// Whether the interactions and notifications are in `state` yet (``takeStore(from:)``).
    package let storeRestore: StoreRestore

    package init(
        _ state: HeraldState, changeSink: (@Sendable (PendingChange) -> Void)? = nil, changeBell: ChangeBell = ChangeBell(),
        storeRestore: StoreRestore = StoreRestore(), changePreparer: (@Sendable (PendingChange) -> Void)? = nil
    ) {
        self.box = AdaptiveLockedValue(Guarded(state: state))
        self.changeSink = changeSink
        self.changePreparer = changePreparer
        self.changeBell = changeBell
        self.storeRestore = storeRestore
    }

    /// Puts the interactions and notifications restored apart into the state, under the
    /// lock and without counting a change: the state is then the snapshot's, with what
    /// requests changed meanwhile. ``storeRestore`` finishes after, once what fell due is done.
    package func takeStore(from restored: consuming HeraldState) {
        var restored = restored
        hold { $0.state.takeStore(from: &restored) }
    }

    /// Returns once the change count passes `count`, or at cancellation: for the snapshot
    /// writer, which sleeps until there is something to write.
    package func waitForChange(after count: UInt64) async {
        await changeBell.wait(unless: { changeCount > count })
    }

    /// After a change, out of the lock: the alarm hears when the next thing is due, and the
    /// snapshot writer that something changed.
    private func changed(nextDue: Date?) {
        dueAlarm.due(at: nextDue)
        changeBell.ring()
    }

    /// Has the change log encode what it can of the current request's record before the
    /// lock, once: a donation's once the donation is prepared (all of it but its time),
    /// any other's at its first hold (all but its time and the values drawn under it).
    /// Under the lock, the other event loop would wait for the encoding.
    private func prepareChangeRecord() {
        guard let changePreparer else { return }
        ChangeCapture.withCurrent { change in
            guard !change.isReplay, !change.appended, change.preparedRecord == nil else { return }
            changePreparer(change)
        }
    }

    /// Hands the current request's change to the log, once; under the lock.
    @inline(__always)
    private func logChange() {
        guard let changeSink else { return }
        ChangeCapture.withCurrent { change in
            guard !change.appended, !change.isReplay else { return }
            change.appended = true
            changeSink(change)
        }
    }

    /// Whether any uid has a gateway holding grants, read without the lock: when none has
    /// (the common case), a change has nothing to revoke (``GrantRevocations``). A read
    /// under the lock was no more current: the lock was let go before the change took it.
    package var hasGrantHolders: Bool {
        grantHolders.load(ordering: .acquiring) > 0
    }

    /// How long the current hold of the lock has lasted; zero while it is free. A wedged
    /// daemon is one whose lock stays held: the watchdog stops pinging past a bound.
    package var heldFor: Duration {
        let began = holdBegan.load(ordering: .relaxed)
        guard began != 0 else { return .zero }
        let now = Self.monotonicNanoseconds()
        return now > began ? .nanoseconds(Int64(now - began)) : .zero
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec) | 1
    }

    /// Runs `body` with the lock held, noting when the hold began.
    private func hold<Result>(_ body: (inout Guarded) throws -> Result) rethrows -> Result {
        try box.withLockedValue { guarded in
            holdBegan.store(Self.monotonicNanoseconds(), ordering: .relaxed)
            defer {
                grantHolders.store(guarded.state.grantHolderCount, ordering: .releasing)
                holdBegan.store(0, ordering: .relaxed)
            }
            return try body(&guarded)
        }
    }

    /// Runs `body` with the state locked; its typed error passes through. `logsChange` says
    /// whether the value is the change itself (the change log's record goes with it), for a
    /// step that may only read, such as a donation's retry comparing.
    package func withLock<Value: Sendable, Failure: Error>(
        logsChange: ((Value) -> Bool)? = nil,
        _ body: (inout HeraldState) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        prepareChangeRecord()
        var nextDue: Date?
        let result: Result<Value, Failure> = hold { guarded in
            guarded.changes &+= 1
            defer { nextDue = guarded.state.nextStoredDue }
            do throws(Failure) {
                let value = try body(&guarded.state)
                if logsChange?(value) ?? true { logChange() }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        changed(nextDue: nextDue)
        // Taken apart rather than through `get()`, which copies the value out: a donation's
        // step holds the record it evicted, and a copy would retain each of its strings.
        switch consume result {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }

    /// Runs `body` with the state locked and `uid`'s notification list the state's alone.
    ///
    /// A reader (a search, a listing, built after the lock) holds the list it read; a
    /// change to that list would copy all of it, and its index, under the lock (issue 49,
    /// finding 4). So when a reader holds it, the list is copied after the lock and put in
    /// its place, and `body` runs on the copy: the uid that reads pays for the copy, on its
    /// own thread, and no other request waits for it. Tried a few times: a list read again
    /// between the copy and the change is copied by the change, and counted
    /// (``HeraldState/notificationListCopiesWhileRead``).
    ///
    /// `uid` nil is every uid's list: for the summaries and snoozes due, which change any.
    package func withLock<Value: Sendable, Failure: Error>(
        unsharingListOf uid: UInt32?, _ body: (inout HeraldState) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        unshareLists(of: uid)
        return try withLock(body)
    }

    /// The same, counting a change only when `body` says it made one.
    package func withLock<Value: Sendable>(
        unsharingListOf uid: UInt32?, reportingChange body: (inout HeraldState) -> (value: Value, changed: Bool)
    ) -> Value {
        unshareLists(of: uid)
        return withLock(reportingChange: body)
    }

    /// Copies after the lock the lists of `uid` (every uid's when nil) that readers hold,
    /// and puts the copies in their place.
    private func unshareLists(of uid: UInt32?) {
        for _ in 0..<3 {
            var held = hold { $0.state.heldNotificationLists(of: uid) }
            guard !held.isEmpty else { return }
            let copies = held.map { $0.unshared() }
            listsCopiedAfterTheLock.add(copies.count, ordering: .relaxed)
            let stillHeld = hold { guarded in
                for (held, copy) in zip(held, copies) { guarded.state.replaceNotificationList(held, with: copy) }
                return !guarded.state.heldNotificationLists(of: uid).isEmpty
            }
            // The lists replaced are freed by whoever lets them go last: when the reader is
            // done already, that would be this thread, an event loop, and freeing a list of
            // thousands is milliseconds. A thread of its own lets them go instead.
            let retired = RetiredLists(held)
            held = []
            ReusableThreads.requests.run { retired.free() }
            if !stillHeld { return }
        }
    }

    /// Changes to a list a reader held: copied after the lock, and under it (a reader took
    /// the copy again before the change): `stats.notificationListCopies`.
    package var notificationListCopies: (afterTheLock: Int, underTheLock: Int) {
        (listsCopiedAfterTheLock.load(ordering: .relaxed), read(\.notificationListCopiesWhileRead))
    }

    /// Runs `body` with the state locked, counting a change only when `body` says it made one.
    package func withLock<Value: Sendable>(
        reportingChange body: (inout HeraldState) -> (value: Value, changed: Bool)
    ) -> Value {
        prepareChangeRecord()
        var nextDue: Date?
        var didChange = false
        let value = hold { guarded in
            let (value, changed) = body(&guarded.state)
            if changed {
                guarded.changes &+= 1
                logChange()
                nextDue = guarded.state.nextStoredDue
                didChange = true
            }
            return value
        }
        if didChange { changed(nextDue: nextDue) }
        return value
    }

    /// Runs `step` under the lock again and again until it says it is done, letting the
    /// lock go between holds: for work too long for one hold (a large deletion, many
    /// expired interactions), so that other requests are answered between the steps.
    ///
    /// The lock is not fair: taken again at once, it stays this thread's while a woken
    /// event loop is on its way to it, even with `sched_yield` between. A pause of 50 µs
    /// between holds lets it in.
    package func withLockInSteps(_ step: (inout HeraldState) -> (isDone: Bool, changed: Bool)) {
        while true {
            let isDone = withLock(reportingChange: { state in
                let (isDone, changed) = step(&state)
                return (isDone, changed)
            })
            if isDone { return }
            usleep(50)
        }
    }

    /// Reads the state under the lock without counting a change.
    package func read<Value: Sendable>(_ body: (HeraldState) -> Value) -> Value {
        hold { body($0.state) }
    }

    /// Reads the state under the lock with a body that may refuse, such as a rule that
    /// finds the caller may not read what it asks for.
    package func readThrowing<Value: Sendable, Failure: Error>(_ body: (HeraldState) throws(Failure) -> Value) throws(Failure) -> Value {
        try hold { guarded in Result { () throws(Failure) in try body(guarded.state) } }.get()
    }

    /// A copy of the state: cheap, since the state is made of copy-on-write values.
    package func copy() -> HeraldState {
        hold { $0.state }
    }

    /// A copy of the state for a snapshot (``HeraldState/forSnapshot``), with the change
    /// count it was taken at.
    package func snapshotCopy() -> (state: HeraldState, changes: UInt64) {
        hold { ($0.state.forSnapshot, $0.changes) }
    }

    /// The same, running `alongside` in the same hold: the change log begins the segment
    /// that follows a snapshot there, so that no change falls between the two.
    package func snapshotCopy(alongside: () -> Void) -> (state: HeraldState, changes: UInt64) {
        hold { guarded in
            alongside()
            return (guarded.state.forSnapshot, guarded.changes)
        }
    }

    /// How many calls could have changed the state so far.
    package var changeCount: UInt64 {
        hold { $0.changes }
    }
}

/// Lists replaced by their copies, let go on a thread of their own (``SharedState``).
private final class RetiredLists: Sendable {
    private let lists: Mutex<[HeldNotificationList]>

    init(_ lists: [HeldNotificationList]) {
        self.lists = Mutex(lists)
    }

    func free() {
        lists.withLock { $0 = [] }
    }
}
