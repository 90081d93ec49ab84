import FoundationEssentials
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

    let caller: Caller
    /// The clock value the rule saw.
    let appliedAt: Date
    /// The record's method, params and drawn identifiers, for work run as its request ran;
    /// nil for a donation, whose turn needs none of them (one allocation less a record).
    let change: PendingChange?
    var work: Work
    /// A donation's key's hash in a ``DonationRun`` (``DonationRun/keyHash(uid:app:identifier:)``),
    /// worked out on the reading thread: the applying thread starts its look-up a few
    /// donations ahead of its turn, and reading it there would copy the donation. 0 for
    /// other work.
    let runHash: Int

    init(_ change: PendingChange, _ work: Work) {
        self.caller = change.caller
        self.appliedAt = change.appliedAt ?? Date()
        self.change = change
        self.work = work
        self.runHash = 0
    }

    /// Moves the work out, leaving ``Work/refused``: what it holds is handed on without a
    /// copy, which would retain each of an interaction's strings once more.
    mutating func takeWork() -> Work {
        var work = Work.refused
        swap(&work, &self.work)
        return work
    }

    /// A donation ready for the store's part; `runHash` is its key's hash when the caller
    /// worked it out.
    init(donationBy caller: Caller, appliedAt: Date, _ donation: PreparedDonation, runHash: Int? = nil) {
        self.caller = caller
        self.appliedAt = appliedAt
        self.change = nil
        self.runHash = runHash ?? DonationRun.keyHash(uid: caller.uid, app: donation.app, identifier: donation.identifier)
        self.work = .donation(donation)
    }
}
