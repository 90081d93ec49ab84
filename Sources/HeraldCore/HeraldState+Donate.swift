import FoundationEssentials
import HeraldProtocol

extension HeraldState {
    /// Checks a donation by every rule that needs no state, and turns its interaction into
    /// what the store keeps (a message's text as its digest, ``ContentDigest``): the part
    /// of `donate` made before the state's lock is taken.
    ///
    /// An interaction without an identifier is given one here, so that its record (what
    /// the store keeps, ``EncodedInteraction``) is encoded once and before the lock.
    package static func prepareDonation(_ p: DonateParams) throws(RuleError) -> PreparedDonation {
        try AppName.validate(p.app)
        try DonationRules.validate(p.interaction)
        var interaction = ContentDigest.storing(p.interaction)
        if interaction.identifier == nil { interaction.identifier = UUID().uuidString.lowercased() }
        return PreparedDonation(app: p.app, interaction: interaction)
    }

    /// `donate`: validates the interaction by ``DonationRules``, then stores it under the
    /// caller's (uid, app).
    ///
    /// A donation with an identifier already stored is a retry when the interaction is
    /// the same (it returns the first result) and error 1007 when it differs; a message's
    /// text is compared, and kept, as its digest (``ContentDigest``). Beyond the limits
    /// the oldest donations are evicted (``evictBeyondLimits(donor:releasing:)``); an app past
    /// `maxAppsPerUID` is refused.
    ///
    /// The whole of it in one call; the server goes through ``prepareDonation(_:)`` and
    /// ``donate(_:caller:now:retry:)`` to keep work out of the lock.
    package mutating func donate(_ p: DonateParams, caller: Caller, now: Date) throws(RuleError) -> MethodOutcome<DonateResult> {
        let donation = try Self.prepareDonation(p)
        return donation.outcome(try donate(donation, caller: caller, now: now))
    }

    /// The part of `donate` that needs the state, a retry's comparison made in place: for
    /// the change log's replay, which holds the state alone.
    package mutating func donate(_ donation: PreparedDonation, caller: Caller, now: Date) throws(RuleError) -> DonateResult {
        var released = ReleasedInteractions()
        return try donate(donation, caller: caller, now: now, releasing: &released)
    }

    /// The same, adding what the donation evicted to `released` for whoever frees it.
    package mutating func donate(
        _ donation: PreparedDonation, caller: Caller, now: Date, releasing released: inout ReleasedInteractions
    ) throws(RuleError) -> DonateResult {
        var step = try donate(donation, caller: caller, now: now, retry: nil)
        if case .compare(let stored) = step {
            step = try donate(donation, caller: caller, now: now, retry: DonationRetry.compare(donation, with: stored))
        }
        guard case .done(let result, let evicted) = consume step else {
            preconditionFailure("A donation given a retry's comparison compares in place.")
        }
        released.add(evicted)
        return result
    }

    /// The part of `donate` that needs the state: the app's Focus authorization, the
    /// identifier already stored, the room for an app, and the store itself.
    ///
    /// When an interaction is already stored under the donation's identifier and `retry`
    /// is nil, nothing changes and the answer is that stored interaction: comparing it is
    /// linear in its size (an 88,000-member call record takes milliseconds), so the caller
    /// compares it outside the lock (``DonationRetry/compare(_:with:)``) and calls again
    /// with the verdict. A verdict made against an interaction no longer stored (deleted
    /// and donated anew meanwhile) is set aside and the comparison made here. The journal's
    /// record is made after the lock (``PreparedDonation/outcome(_:)``), and what the
    /// donation evicted is freed after it (``ReleasedInteractions``).
    package mutating func donate(
        _ donation: PreparedDonation, caller: Caller, now: Date, retry: DonationRetry?
    ) throws(RuleError) -> DonationStep {
        try DonationRules.validateAuthorization(
            donation.interaction, authorization: settings.authorization(uid: caller.uid, app: donation.app)
        )

        let knownApp = interactions.apps.id(of: donation.app)
        // A uid holding nothing of the app holds nothing under the identifier either; only
        // then is there an app to make room for.
        if !(knownApp.map { interactions.holds(uid: caller.uid, app: $0) } ?? false) {
            try requireRoomForApp(donation.app, holding: interactions.appCount(of: caller.uid))
        }

        let identifier = donation.identifier
        let key = InteractionKey(uid: caller.uid, app: knownApp ?? interactions.appID(interning: donation.app), identifier: identifier)
        if let existing = interactions.insertIfAbsent(donation.record, at: key, donatedAt: now) {
            guard let retry else { return .compare(StoredDonation(stored: existing)) }
            let isIdentical =
                retry.sequence == existing.sequence ? retry.isIdentical : DonationRetry.isIdentical(donation, existing)
            guard isIdentical else {
                throw RuleError(
                    .identifierConflict,
                    "The identifier \(identifier) was donated before with a different interaction; use a new identifier.",
                    at: ["interaction", "identifier"]
                )
            }
            return .done(DonateResult(identifier: identifier, donatedAt: existing.donatedAt), released: ReleasedInteractions())
        }
        var released = ReleasedInteractions()
        evictBeyondLimits(donor: caller.uid, releasing: &released)
        return .done(DonateResult(identifier: identifier, donatedAt: now), released: released)
    }

    /// Throws invalid params at `app` when a uid already holding `held` apps may not add `app`
    /// (`maxAppsPerUID`), and counts the refusal.
    mutating func requireRoomForApp(_ app: String, holding held: Int) throws(RuleError) {
        let limit = configuration.maxAppsPerUID
        guard held >= limit else { return }
        fairShares.appsRefused += 1
        throw RuleError(
            .invalidParams,
            "This uid already holds \(held) apps, the most it may (--max-apps-per-uid \(limit)); delete an app's interactions with delete-interactions all: true before using \(app).",
            at: ["app"],
            limit: limit
        )
    }
}

/// A donation checked by the rules that need no state, its interaction as the store keeps
/// it (``HeraldState/prepareDonation(_:)``): its identifier set, and encoded as the store's
/// record.
package struct PreparedDonation: Sendable {
    package let app: String
    /// `interaction` encoded: what the store keeps, and the change log's record holds.
    package let record: EncodedInteraction
    /// The interaction, unless it came from the change log as its record's bytes.
    private let decoded: Interaction?
    /// Its identifier (set by ``HeraldState/prepareDonation(_:)``).
    package let identifier: String
    /// Whether it asks to notify its recipient anyway, which takes the app's Focus
    /// authorization.
    let asksToNotifyRecipientAnyway: Bool
    /// Whether it is an incoming call (``EncodedInteraction/isIncomingCall``): read where
    /// the record is made or read, so that a restart's run need not read it again.
    let isIncomingCall: Bool

    init(app: String, interaction: Interaction) {
        precondition(interaction.identifier != nil, "A prepared donation has an identifier.")
        self.app = app
        self.decoded = interaction
        self.record = EncodedInteraction(interaction)
        self.identifier = interaction.identifier ?? ""
        self.asksToNotifyRecipientAnyway = interaction.intent.asksToNotifyRecipientAnyway
        self.isIncomingCall = record.isIncomingCall
    }

    /// The interaction, as the store keeps it: decoded from the record when the donation
    /// came from the change log (a replay needs it only for a retry).
    package var interaction: Interaction { decoded ?? record.interaction }

    /// A donation the change log recorded once it was stored: `interaction` is as the
    /// store kept it (checked, its identifier drawn, its text a digest), so nothing is
    /// checked or turned again.
    package init(recordedApp app: String, interaction: Interaction) {
        self.init(app: app, interaction: interaction)
    }

    /// The same, from the log's bytes of the interaction, kept as the store's record: its
    /// identifier read in place, and the record decoded only when it has donation metadata
    /// (which may ask to notify anyway). A restart makes these on its reading thread,
    /// leaving the state's thread only the store's part.
    package init(recordedApp app: String, record: EncodedInteraction) {
        self.app = app
        self.decoded = nil
        self.record = record
        self.identifier = record.identifier
        let flags = record.flags
        self.asksToNotifyRecipientAnyway =
            flags.contains(.hasDonationMetadata) && record.interaction.intent.asksToNotifyRecipientAnyway
        self.isIncomingCall = EncodedInteraction.isIncomingCall(flags)
    }

    /// `donate`'s answer when the donation was stored, or was a retry of the one stored,
    /// as `result` says, with what the journal records: the interaction as donated, its
    /// identifier the stored one's (a retry's is identical to it).
    package func outcome(_ result: DonateResult) -> MethodOutcome<DonateResult> {
        MethodOutcome(result: result, audit: AuditRecord(app: app, describing: interaction, identifier: result.identifier))
    }
}

/// What a donation under the state's lock came to.
package enum DonationStep: Sendable {
    /// Stored, or identical to the interaction stored under its identifier; with what
    /// storing it evicted, to let go after the lock.
    case done(DonateResult, released: ReleasedInteractions)
    /// An interaction is stored under the donation's identifier: compare the two outside
    /// the lock and donate again with the verdict.
    case compare(StoredDonation)
}

/// A stored interaction, opaque outside the rules, for ``DonationRetry/compare(_:with:)``.
///
/// A class, made only for a retry: it keeps ``DonationStep``, which every donation returns
/// out of the lock, the size of a ``DonateResult`` to copy.
package final class StoredDonation: Sendable {
    let stored: StoredInteraction

    init(stored: StoredInteraction) {
        self.stored = stored
    }
}

/// Whether a donation is identical to the interaction stored under its identifier, worked
/// out outside the state's lock; the stored one's sequence says which it was compared with.
package struct DonationRetry: Sendable {
    let sequence: UInt64
    let isIdentical: Bool

    /// Compares the donation's interaction, as the store keeps it, with `stored`.
    package static func compare(_ donation: PreparedDonation, with stored: StoredDonation) -> DonationRetry {
        DonationRetry(sequence: stored.stored.sequence, isIdentical: isIdentical(donation, stored.stored))
    }

    /// Whether `donation` is the interaction `stored` holds: the same bytes, else the same
    /// value decoded (one encoding of two equal values can differ, a date of -0 and of 0).
    static func isIdentical(_ donation: PreparedDonation, _ stored: StoredInteraction) -> Bool {
        stored.record == donation.record || stored.interaction == donation.interaction
    }
}
