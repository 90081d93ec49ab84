import Foundation
import HeraldProtocol

extension HeraldState {
    /// `donate`: validates the interaction by ``DonationRules``, then stores it under the
    /// caller's (uid, app).
    ///
    /// A donation with an identifier already stored is a retry when the interaction is
    /// the same (it returns the first result) and error 1007 when it differs; a message's
    /// text is compared, and kept, as its digest (``ContentDigest``). Beyond the limits
    /// the oldest donations are evicted (``evictBeyondLimits(donor:)``); an app past
    /// `maxAppsPerUID` is refused.
    ///
    /// `retry`, from ``compareWithStored(_:caller:)`` outside the state's lock, spares
    /// the lock the comparison (linear in the interaction's size) when the stored
    /// interaction it was made against is still the one stored.
    package mutating func donate(
        _ p: DonateParams, caller: Caller, now: Date, retry: DonationRetry? = nil
    ) throws(RuleError)
        -> MethodOutcome<DonateResult>
    {
        try AppName.validate(p.app)
        let authorization = settings.authorization(uid: caller.uid, app: p.app)
        try DonationRules.validate(p.interaction, authorization: authorization)

        var audit = AuditRecord(app: p.app)
        // As the store keeps it: a message's text as its digest, so that a retry with
        // other text is told apart without keeping the text.
        var interaction = ContentDigest.storing(p.interaction)
        let knownApp = interactions.key(uid: caller.uid, app: p.app, identifier: "")?.app
        if let identifier = interaction.identifier, let app = knownApp,
            let existing = interactions[InteractionKey(uid: caller.uid, app: app, identifier: identifier)]
        {
            let isIdentical =
                retry.flatMap { $0.sequence == existing.sequence ? $0.isIdentical : nil }
                ?? (existing.interaction == interaction)
            guard isIdentical else {
                throw RuleError(
                    .identifierConflict,
                    "The identifier \(identifier) was donated before with a different interaction; use a new identifier.",
                    at: ["interaction", "identifier"]
                )
            }
            audit.describe(existing.interaction)
            return MethodOutcome(result: DonateResult(identifier: identifier, donatedAt: existing.donatedAt), audit: audit)
        }
        let heldApps = interactions.apps(of: caller.uid)
        if !(knownApp.map(heldApps.contains) ?? false) {
            try requireRoomForApp(p.app, holding: heldApps.count)
        }

        let identifier = interaction.identifier ?? UUID().uuidString.lowercased()
        interaction.identifier = identifier
        let app = interactions.appID(interning: p.app)
        audit.describe(interaction)
        interactions.insert(interaction, uid: caller.uid, app: app, donatedAt: now)
        evictBeyondLimits(donor: caller.uid)

        return MethodOutcome(result: DonateResult(identifier: identifier, donatedAt: now), audit: audit)
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

    /// The stored interaction a donation of `p` would be a retry of, if any: a copy that
    /// costs nothing, to be compared outside the state's lock (``DonationRetry/compare(_:with:)``).
    package func storedDonation(_ p: DonateParams, caller: Caller) -> StoredDonation? {
        guard let identifier = p.interaction.identifier,
            let key = interactions.key(uid: caller.uid, app: p.app, identifier: identifier),
            let stored = interactions[key]
        else { return nil }
        return StoredDonation(stored: stored)
    }
}

/// A stored interaction, opaque outside the rules: what ``HeraldState/storedDonation(_:caller:)`` returns.
package struct StoredDonation: Sendable {
    let stored: StoredInteraction
}

/// Whether a donation is identical to the interaction stored under its identifier, worked
/// out outside the state's lock; the stored one's sequence says which it was compared with.
package struct DonationRetry: Sendable {
    let sequence: UInt64
    let isIdentical: Bool

    /// Compares `p`'s interaction, as the store would keep it, with `stored`.
    package static func compare(_ p: DonateParams, with stored: StoredDonation) -> DonationRetry {
        DonationRetry(
            sequence: stored.stored.sequence,
            isIdentical: stored.stored.interaction == ContentDigest.storing(p.interaction)
        )
    }
}
