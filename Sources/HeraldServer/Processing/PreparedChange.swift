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
    /// A donation's app and identifier, beside it: what the applying thread hashes its key
    /// from a few donations ahead of its turn (``workOutRunHash(with:)``). Read out of
    /// ``work``, the donation would be copied. Empty for other work.
    private let keyApp: String
    private let keyIdentifier: String
    /// A donation's key's hash in a ``DonationRun`` (``DonationRun/keyHash(uid:app:identifier:)``),
    /// once worked out; nil before, and for other work.
    private var runHash: Int?

    init(_ change: PendingChange, _ work: Work) {
        self.caller = change.caller
        self.appliedAt = change.appliedAt ?? Date()
        self.change = change
        self.work = work
        self.keyApp = ""
        self.keyIdentifier = ""
        self.runHash = nil
    }

    /// Moves the work out, leaving ``Work/refused``: what it holds is handed on without a
    /// copy, which would retain each of an interaction's strings once more.
    mutating func takeWork() -> Work {
        var work = Work.refused
        swap(&work, &self.work)
        return work
    }

    /// A donation ready for the store's part.
    init(donationBy caller: Caller, appliedAt: Date, _ donation: PreparedDonation) {
        self.caller = caller
        self.appliedAt = appliedAt
        self.change = nil
        self.keyApp = donation.app
        self.keyIdentifier = donation.identifier
        self.runHash = nil
        self.work = .donation(donation)
    }

    /// Works out a donation's ``runHash`` with `keyHashes`, unless it was, and returns it;
    /// nil for other work. The applying thread does this a few donations ahead of their
    /// turn, in time it would otherwise spend waiting for the reading thread, which bounds
    /// a restart (docs/performance.md, "Durability").
    mutating func workOutRunHash(with keyHashes: inout DonationRun.KeyHashes) -> Int? {
        if let runHash { return runHash }
        guard case .donation = work else { return nil }
        let hash = keyHashes.hash(uid: caller.uid, app: keyApp, identifier: keyIdentifier)
        runHash = hash
        return hash
    }
}
