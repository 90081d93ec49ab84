import FoundationEssentials
import HeraldCore
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The change a request is making, as the change log keeps it: its method, caller and
/// params, the clock value its rule saw and what it drew at random. The method table sets
/// one around each method that changes the state; ``SharedState`` hands it to the log
/// under its lock, after the first hold that changed the state, so that the log's order is
/// the order changes were applied. Replay sets one with the record's values, and the rule
/// sees the same time and identifiers again.
package final class PendingChange: @unchecked Sendable {
    // One thread's while a request runs: never shared.
    package let method: String
    package let caller: Caller
    /// The params as the request sent them, parsed: their JSON text is copied only into a
    /// record that keeps it (``params``), never into a donation's.
    private let parsedParams: JSONNode?
    private let paramsText: [UInt8]
    package private(set) var appliedAt: Date?
    package private(set) var generated: [String]
    /// What a donation stored: the log keeps it instead of the params (``ChangeRecord``).
    package internal(set) var donation: StoredDonation?
    /// Whether ``donation`` is set, read without copying it.
    package var isDonation: Bool { donation != nil }
    /// The change log's record of this change, encoded before the state's lock
    /// (``SharedState/prepareChangeRecord()``); taken out when it is appended.
    package var preparedRecord: [UInt8]?
    private var nextGenerated = 0
    /// A replayed record: read from, never appended.
    package let isReplay: Bool
    /// Made by a connection's request, whose answer commits the change log at the end of
    /// its event loop's turn (``AnswerGate/commit``); any other change is committed at once.
    package let isAnswered: Bool
    var appended = false

    package init(method: String, caller: Caller, params: [UInt8], appliedAt: Date? = nil, generated: [String] = [], isReplay: Bool = false) {
        self.method = method
        self.caller = caller
        self.parsedParams = nil
        self.paramsText = params
        self.appliedAt = appliedAt
        self.generated = generated
        self.isReplay = isReplay
        self.isAnswered = false
    }

    /// A live request's change, its params as the method table parsed them.
    package init(method: String, caller: Caller, parsedParams: JSONNode) {
        self.method = method
        self.caller = caller
        self.parsedParams = parsedParams
        self.paramsText = []
        self.generated = []
        self.isReplay = false
        self.isAnswered = true
    }

    /// The params' JSON text, as the request sent it, not copied out of the text it was
    /// parsed from.
    package var params: ArraySlice<UInt8> { parsedParams?.containerText ?? paramsText[...] }

    /// The request's one clock value: the first read fixes it.
    func now(_ clock: any HeraldClock) -> Date {
        if let appliedAt { return appliedAt }
        let now = clock.now()
        appliedAt = now
        return now
    }

    /// A value drawn at random for this request: the recorded one on replay.
    func draw(_ make: () -> String) -> String {
        if nextGenerated < generated.count {
            defer { nextGenerated += 1 }
            return generated[nextGenerated]
        }
        let value = make()
        if !isReplay { generated.append(value) }
        nextGenerated = generated.count
        return value
    }
}

/// What the change log keeps of a donation: the app it was stored under and the store's
/// record of its interaction — not the whole ``HeraldCore/PreparedDonation``, whose copy
/// retains every string and array of the interaction it was prepared from, once when the
/// request hands it over and again when the change is freed (docs/performance.md,
/// "Durability").
package struct StoredDonation: Sendable {
    package let app: String
    package let record: EncodedInteraction

    init(_ donation: PreparedDonation) {
        self.app = donation.app
        self.record = donation.record
    }
}

/// Where the request running on this thread keeps its ``PendingChange``.
///
/// A thread's own value, not a task local: a change is captured only around a synchronous
/// body (``run(_:_:)``), so it never crosses a suspension and no other thread may see it —
/// not even a task the body starts, which would inherit a task local and read the change
/// from another thread. It is also cheaper on every request: a task local bound outside a
/// task allocates its binding, and each read walks the runtime's list
/// (docs/performance.md, "Where the default's extra CPU goes").
package enum ChangeCapture {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key is left for the change capture")
        return key
    }()

    /// Whether a change is captured on this thread.
    package static var isCapturing: Bool { pthread_getspecific(key) != nil }

    /// `body` with the change of the request running on this thread, nil when none is
    /// captured. Not retained: ``run(_:_:)``'s caller holds it for as long as it is the
    /// thread's, and the rules read it a few times in every request (the clock, the change
    /// log's preparer and sink), each read otherwise a retain and a release.
    package static func withCurrent<Value>(_ body: (PendingChange) throws -> Value) rethrows -> Value? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return try Unmanaged<PendingChange>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
    }

    /// Runs `body` with `change` as the current request's change.
    package static func run<Value>(_ change: PendingChange, _ body: () throws -> Value) rethrows -> Value {
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(change).toOpaque())
        defer { pthread_setspecific(key, outer) }
        // Unretained: `change` is the caller's, alive until this returns.
        return try body()
    }

    /// A value drawn at random (an identifier): recorded while a change is captured,
    /// handed back on replay.
    package static func draw(_ make: () -> String) -> String {
        withCurrent { $0.draw(make) } ?? make()
    }

    /// The caller heraldd's own periodic work (`tick:` records) is logged as.
    package static let daemon = Caller(uid: 0, gid: 0, pid: 0, isAdministrator: true)
}

/// A clock whose `now` is fixed for the duration of a captured request: the value the
/// change log records, and replay gives back.
package struct CapturingClock: HeraldClock {
    package let base: any HeraldClock

    package init(_ base: any HeraldClock) {
        self.base = base
    }

    package func now() -> Date {
        ChangeCapture.withCurrent { $0.now(base) } ?? base.now()
    }

    package func sleep(for seconds: Double) async throws {
        try await base.sleep(for: seconds)
    }

    package func sleep(until deadline: Date) async throws {
        try await base.sleep(until: deadline)
    }
}
