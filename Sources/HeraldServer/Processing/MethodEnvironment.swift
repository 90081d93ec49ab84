import FoundationEssentials
import HeraldCore
import HeraldProtocol
import NIOConcurrencyHelpers

/// What the method handlers need beyond their params.
package struct MethodEnvironment: Sendable {
    package var state: SharedState
    package var clock: any HeraldClock
    package var statistics: ServerStatistics
    /// The OpenRPC document `rpc.discover` returns.
    package var openRPCDocument: JSONValue
    /// Members that other parts of the daemon (the journal writer, the snapshot writer) add to `stats`.
    package var statsContributions: @Sendable () -> JSONObject
    /// Takes a snapshot now, for the `snapshot` method; the daemon's snapshot writer.
    package var takeSnapshot: @Sendable () throws(RPCError) -> SnapshotResult
    /// The most bytes of UTF-8 in one string of params (`--max-string-bytes`).
    package var maxStringBytes: Int
    /// The largest response (`--max-response-bytes`): a listing's page is bounded by it.
    package var maxResponseBytes = RequestLimits().maxResponseBytes
    /// Whether an app's methods are refused to connections without a verified app
    /// (`--require-app-identity`).
    package var requireAppIdentity = false
    /// Journals a summary delivered (uid, count, identifiers; never content).
    package var recordSummary: @Sendable (NotificationSummary) -> Void = { _ in }
    /// Journals a snoozed notification delivered again (uid, app, identifier; never content).
    package var recordSnoozeEnded: @Sendable (NotificationDelivered) -> Void = { _ in }
    /// Journals a response (uid, app, notification and action identifiers, where it went;
    /// never `userText`).
    package var recordResponse: @Sendable (UInt32, NotificationResponse, ResponseHandoff) -> Void = { _, _, _ in }
    /// Journals a change of a uid's Focus in effect (name, on or off, counts; never a handle).
    package var recordFocusChange: @Sendable (FocusChange) -> Void = { _ in }
    /// Journals a Focus digest made (uid, Focus, counts; never an app, a person or content).
    package var recordFocusDigest: @Sendable (FocusDigest) -> Void = { _ in }
    /// Journals a Focus hold taken or ended (uid, Focus, holder's pid and command, reason).
    package var recordFocusHold: @Sendable (FocusHoldEvent) -> Void = { _ in }
    /// Why a change is refused now — the state folder cannot be written, under
    /// `--on-write-failure refuse` — or nil while changes are taken. Called for every
    /// request of a method that changes the state: an atomic load while all is well.
    package var changesRefused: @Sendable () -> String? = { nil }
    /// Whether changes are captured for a change log (``PendingChange``); the clock should
    /// then be a ``CapturingClock``.
    package var capturesChanges = false
    /// Whether results are written: not when the change log's records are replayed at
    /// start, where nobody reads them.
    package var writesResults = true
    /// Requests refused by `maxStringBytes`.
    let stringsRefused = NIOLockedValueBox(0)

    package init(
        state: SharedState,
        clock: any HeraldClock,
        statistics: ServerStatistics,
        openRPCDocument: JSONValue,
        statsContributions: @escaping @Sendable () -> JSONObject = { JSONObject() },
        maxStringBytes: Int = 16_384,
        takeSnapshot: @escaping @Sendable () throws(RPCError) -> SnapshotResult = { () throws(RPCError) in
            throw RPCError(.internalError, reason: "This server keeps no snapshots.")
        }
    ) {
        self.maxStringBytes = maxStringBytes
        self.state = state
        self.clock = clock
        self.statistics = statistics
        self.openRPCDocument = openRPCDocument
        self.statsContributions = statsContributions
        self.takeSnapshot = takeSnapshot
    }
}

/// A Focus hold taken or ended, for the journal.
package struct FocusHoldEvent: Sendable, Hashable {
    package var uid: UInt32
    package var hold: FocusHoldInfo
    /// True when the hold was taken, false when it ended.
    package var began: Bool
}
