import FoundationEssentials
import HeraldProtocol

/// Every uid's Focuses (``FocusState``), the activation count they share (so that an
/// activation number is unique across uids), and the changes of the Focus in effect
/// not yet journaled.
struct FocusTable: Sendable {
    private(set) var byUID: [UInt32: FocusState] = [:]
    /// Counts activations across uids.
    var activations: UInt64 = 0
    /// Changes made since the server last took them (``HeraldState/takeFocusChanges()``),
    /// oldest first; at most ``maxPendingChanges``, the oldest dropped beyond.
    private(set) var pendingChanges: [FocusChange] = []
    static let maxPendingChanges = 4096
    /// What each uid's activation silenced, and the digests made when they ended.
    var digests = FocusDigests()

    init() {}

    subscript(uid: UInt32) -> FocusState {
        byUID[uid] ?? FocusState()
    }

    /// How many uids have a Focus on (as of their last change).
    var onCount: Int {
        byUID.values.reduce(0) { $0 + ($1.current == nil ? 0 : 1) }
    }

    /// The earliest change by itself of any uid's Focus; nil: none.
    var nextChange: Date? {
        byUID.values.compactMap(\.nextChange).min()
    }

    /// Runs `body` on `uid`'s Focuses and keeps the change it reports, if any.
    @discardableResult
    mutating func update<Value, Failure: Error>(
        _ uid: UInt32,
        _ body: (inout FocusState, inout UInt64) throws(Failure) -> (value: Value, change: FocusState.Change?)
    ) throws(Failure) -> Value {
        var state = byUID.removeValue(forKey: uid) ?? FocusState()
        defer {
            if !state.definitions.isEmpty || state.manual != nil || state.current != nil || !state.holds.isEmpty {
                byUID[uid] = state
            }
        }
        let (value, change) = try body(&state, &activations)
        if let change {
            record(FocusChange(uid: uid, change))
            digests.focusChanged(uid: uid, to: state.current, change: change)
        }
        return value
    }

    /// Whether a change by itself of `uid`'s Focus is due at `now`.
    func isDue(_ uid: UInt32, at now: Date) -> Bool {
        byUID[uid]?.isDue(at: now) == true
    }

    /// Brings `uid`'s Focus up to `now` if a change by itself is due.
    mutating func advance(_ uid: UInt32, to now: Date, zone: ZoneRules) {
        guard byUID[uid]?.isDue(at: now) == true else { return }
        update(uid) { state, activations in ((), state.advance(to: now, zone: zone, activations: &activations)) }
    }

    /// Brings every uid whose change is due up to `now`.
    mutating func advanceAll(to now: Date, zone: ZoneRules) {
        for uid in byUID.keys where byUID[uid]!.isDue(at: now) {
            advance(uid, to: now, zone: zone)
        }
    }

    mutating func takeChanges() -> [FocusChange] {
        defer { pendingChanges = [] }
        return pendingChanges
    }

    private mutating func record(_ change: FocusChange) {
        if pendingChanges.count >= Self.maxPendingChanges { pendingChanges.removeFirst() }
        pendingChanges.append(change)
    }

    /// Sets `uid`'s Focuses as a snapshot restores them.
    mutating func restore(_ uid: UInt32, _ state: FocusState) {
        byUID[uid] = state
    }
}

/// A change of a uid's Focus in effect, for the journal and the subscribers: never a
/// person's handle, only counts.
package struct FocusChange: Sendable, Hashable {
    package var uid: UInt32
    /// The Focus on now, or the one that went off.
    package var name: String
    package var isOn: Bool
    /// The Focus that was on before, when another one is on now.
    package var previous: String?
    /// `manual` (by hand), `schedule` (a window started), `ended` (its until passed or its
    /// window ended), `deleted` (its definition was deleted).
    package var cause: String
    package var endsAt: Date?
    package var allowedPeople: Int
    package var allowedApps: Int
    package var at: Date
    /// The other host of the person's a change by hand was made on; nil: this one.
    package var origin: FocusOrigin?

    init(uid: UInt32, _ change: FocusState.Change) {
        self.uid = uid
        self.name = change.name
        self.isOn = change.isOn
        self.previous = change.previous
        self.cause = change.cause.rawValue
        self.endsAt = change.endsAt
        self.allowedPeople = change.allowedPeople
        self.allowedApps = change.allowedApps
        self.at = change.at
        self.origin = change.origin
    }
}
