import HeraldCore
import HeraldProtocol

/// A change log record made ready for its turn in a replay
/// (``ChangeReplay/prepare(method:caller:appliedAt:params:generated:)``): what is left to do
/// under the state's lock.
package struct PreparedChange: Sendable {
    enum Work: Sendable {
        /// A donation read and checked by the rules that need no state: the store's part is left.
        case donation(PreparedDonation)
        /// A request to run through its method's entry, its params parsed.
        case request(MethodTable.Entry, JSONNode)
        /// heraldd's own periodic work (a `tick:` record).
        case tick
        /// Refused again before the lock, as it was refused then: applied, and not at all.
        case refused
        /// Its method is unknown or its params do not parse.
        case notApplicable
    }

    /// The record's method, caller, clock value and drawn identifiers.
    let change: PendingChange
    let work: Work

    init(_ change: PendingChange, _ work: Work) {
        self.change = change
        self.work = work
    }
}
