/// The `MESSAGE_ID`s of heraldd's journal entries that belong to no method, one for each
/// outcome an operator may want to find with `journalctl MESSAGE_ID=…`. Each method's own
/// result and error ids are part of its descriptor (`HeraldMethod.journalMessageIDs`).
///
/// Fixed random 128-bit ids; `Units/herald.catalog` explains each of them, and a test checks
/// that the two agree. Never change an id once released: operators' queries name them.
package enum JournalMessageID {
    /// The journal writer's queue was full and entries were dropped; `HERALD_DROPPED` says how many.
    package static let droppedEntries = "0b0c9b2c1d8e4f6aa3b1f1e2d3c4b5a6"
    /// A request was not valid JSON (JSON-RPC -32700); method "*".
    package static let parseError = "0844b92e0b6143c2aeb64a9c6a7b1f26"
    /// A request was JSON but not a valid JSON-RPC 2.0 request (-32600).
    package static let invalidRequest = "a6e4adec77a64ac49b7f511389b8a71e"
    /// A request named a method heraldd does not have (-32601); shared by every unknown method.
    package static let methodNotFound = "50e4ba23152b4ac795d928baf76dc55b"
    /// heraldd failed while handling a request, through no fault of the client (-32603).
    package static let internalError = "6384cb47c0784d159fac6340871c7bff"
    /// heraldd started and told systemd it is ready.
    package static let daemonStarted = "9b982e1688c74759906d3df869ddc5f7"
    /// heraldd is stopping.
    package static let daemonStopping = "b1f06898e36740e98baa13a47682108f"
    /// heraldd stops because it was idle for `--exit-idle-time`: `HERALD_IDLE_SECONDS`.
    package static let idleExit = "9cf95edbba6c44e7ad2eb100ff2f731c"
    /// A uid's scheduled summary was delivered: `HERALD_UID`, `HERALD_COUNT`, `HERALD_NOTIFICATION_IDS`.
    package static let summaryDelivered = "2e3bbe13f87541d5a60724b065dcf374"
    /// A person responded to a notification (`respond-to-notification`): `HERALD_UID`,
    /// `HERALD_APP`, `HERALD_NOTIFICATION_ID`, `HERALD_ACTION_ID`, `HERALD_RESPONSE`
    /// (delivered or pending). Never the text typed.
    package static let notificationResponse = "2b5a8405db4e42cbacec55b8b18bb17c"
    /// A uid's Focus in effect changed — turned on or off by hand, by a schedule, at its
    /// `until`, or by deleting it: `HERALD_UID`, `HERALD_FOCUS`, `HERALD_FOCUS_ON`,
    /// `HERALD_FOCUS_CAUSE`, `HERALD_ALLOWED_PEOPLE`, `HERALD_ALLOWED_APPS`; for a change by
    /// hand made on another host, `HERALD_FOCUS_ORIGIN_HOST` and `HERALD_FOCUS_ORIGIN_REASON`.
    package static let focusChanged = "8e4b1c7d2a5f4093b6d8e1f0c3a7b925"
    /// A snoozed notification came back at its time (`snooze-notification`): `HERALD_UID`,
    /// `HERALD_APP`, `HERALD_NOTIFICATION_ID`, `HERALD_PRESENTATION`.
    package static let snoozeEnded = "b415a093677b41b3ac3a93a646d0c4eb"
    /// A uid's Focus ended having silenced something, and its digest went to the
    /// presenters: `HERALD_UID`, `HERALD_FOCUS`, `HERALD_FOCUS_DIGEST_END`, `HERALD_COUNT`,
    /// `HERALD_FOCUS_DIGEST_CONVERSATIONS`, `HERALD_FOCUS_DIGEST_APPS`,
    /// `HERALD_FOCUS_DIGEST_UNLISTED`. Never an app, a name or content.
    package static let focusDigest = "39483fd088444ea2a3b0c7efc497153e"
    /// A Focus hold began (`hold-focus`): `HERALD_UID`, `HERALD_FOCUS`, `HERALD_FOCUS_HOLD`
    /// (its identifier), `HERALD_HOLDER_PID`, `HERALD_HOLDER_COMMAND`, `HERALD_HOLD_REASON`.
    package static let focusHoldBegan = "8e745fbbd7ee495ea2767ee64dc6b6a6"
    /// A Focus hold ended: its connection closed, or `release-focus-hold`; the same fields,
    /// and `HERALD_HOLD_OVERRIDDEN=1` when a choice by hand had overridden it.
    package static let focusHoldEnded = "b8eec5a30cdc451c90651f7dbb0edea2"
    /// A write of the state failed (a snapshot, or the pid at start): the state in memory is
    /// not on disk. `HERALD_FOLDER`, `HERALD_CAUSE`, `HERALD_NOT_WRITTEN_SINCE`,
    /// `HERALD_UNWRITTEN_CHANGES`, `HERALD_ON_WRITE_FAILURE` (refuse: changes are refused).
    package static let stateNotWritten = "4a73342fa5bb4a628d5c003b7362093d"
    /// A snapshot succeeded after failures: the state is on disk, changes are taken again.
    package static let stateWrittenAgain = "5c66ac604a1740fba428511d006769d0"
    /// The final snapshot failed: heraldd exits with status 74, and what it acknowledged
    /// after `HERALD_NOT_WRITTEN_SINCE` is lost. `HERALD_RECORD` says whether
    /// `state.unwritten` holds the record for the next start.
    package static let finalSnapshotFailed = "552dc0b5befb446caf0ba62e90632790"
    /// At start: the previous heraldd's final snapshot failed (read from `state.unwritten`):
    /// when, why, and how many changes are lost.
    package static let previousStopLostState = "15effd1d1d6f4f978e03999a70717abd"
    /// heraldd refuses to start: another heraldd holds the state folder, its snapshots
    /// cannot be loaded, or the socket cannot be had. The message says which and what to do.
    package static let startRefused = "0af3152b523f4e0b9e726d90e5bf9712"
    /// Stopping took past its bound: heraldd exits 1 at once, without its final snapshot,
    /// and what it acknowledged since the last snapshot is lost.
    package static let stopDeadlinePassed = "2248aecd287c4e0585cc1105a8802ceb"
    /// At start, a snapshot that cannot be loaded (damaged, or of a newer format) was renamed
    /// aside: `HERALD_SET_ASIDE_AS`, `HERALD_PROBLEM`, `HERALD_CAUSE`; and, when none was
    /// left, that heraldd starts empty as `--discard-damaged-state` asks.
    package static let snapshotSetAside = "6f29615c041a4ddbb439049d2a788a41"

    /// The method name logged for a request whose method could not be read (a parse error).
    package static let unreadableMethod = "*"

    /// Every id above, each once.
    /// At start: the change log was replayed after the snapshot restored:
    /// `HERALD_REPLAYED` records applied, `HERALD_DROPPED_BYTES` of a torn or damaged
    /// tail dropped with `HERALD_DROPPED_SEGMENTS` segments after it, and `HERALD_PROBLEM`.
    package static let changeLogReplayed = "259fece7cee04ea09939ca30c968d62d"

    package static let all: [String] = [
        changeLogReplayed,
        droppedEntries, parseError, invalidRequest, methodNotFound, internalError, daemonStarted, daemonStopping,
        idleExit,
        summaryDelivered,
        notificationResponse,
        focusChanged,
        snoozeEnded,
        focusDigest,
        focusHoldBegan,
        focusHoldEnded,
        stateNotWritten,
        stateWrittenAgain,
        finalSnapshotFailed,
        previousStopLostState,
        startRefused,
        stopDeadlinePassed,
        snapshotSetAside,
    ]
}
