import Foundation
import HeraldProtocol

extension HeraldState {
    /// `donate`: validates the interaction by ``DonationRules``, then stores it under the
    /// caller's (uid, app).
    ///
    /// A donation with an identifier already stored is a retry when the interaction is
    /// the same (it returns the first result) and error 1007 when it differs. Beyond
    /// `maxInteractions`, the oldest donations are evicted.
    public mutating func donate(
        _ p: DonateParams, caller: Caller, now: Date
    ) throws(RPCError)
        -> MethodOutcome<DonateResult>
    {
        try AppName.validate(p.app)
        let authorization = settings.authorization(uid: caller.uid, app: p.app)
        try DonationRules.validate(p.interaction, authorization: authorization)

        var audit = AuditRecord(app: p.app)
        if let identifier = p.interaction.identifier,
            let key = interactions.key(uid: caller.uid, app: p.app, identifier: identifier),
            let existing = interactions[key]
        {
            guard existing.interaction == p.interaction else {
                throw RPCError(
                    .identifierConflict,
                    reason: "The identifier \(identifier) was donated before with a different interaction; use a new identifier.",
                    pointer: "/interaction/identifier"
                )
            }
            audit.describe(existing.interaction)
            return MethodOutcome(result: DonateResult(identifier: identifier, donatedAt: existing.donatedAt), audit: audit)
        }

        var interaction = p.interaction
        let identifier = interaction.identifier ?? UUID().uuidString.lowercased()
        interaction.identifier = identifier
        let app = interactions.appID(interning: p.app)
        audit.describe(interaction)
        interactions.insert(interaction, uid: caller.uid, app: app, donatedAt: now)
        evictBeyondLimit()

        return MethodOutcome(result: DonateResult(identifier: identifier, donatedAt: now), audit: audit)
    }

    /// `delete-interactions`: forgets this (uid, app)'s interactions named by exactly one
    /// of `identifiers`, `groupIdentifier` and `all: true`. Identifiers it never donated
    /// are not counted, so the count reveals nothing of anyone else's.
    public mutating func deleteInteractions(
        _ p: DeleteInteractionsParams, caller: Caller, now: Date
    ) throws(RPCError)
        -> MethodOutcome<DeleteInteractionsResult>
    {
        try AppName.validate(p.app)
        var given: [String] = []
        if p.identifiers != nil { given.append("identifiers") }
        if p.groupIdentifier != nil { given.append("groupIdentifier") }
        if p.all != nil { given.append("all") }
        guard given.count == 1 else {
            throw .invalidParams(
                "Give exactly one of identifiers, groupIdentifier and all: true.",
                at: given.count > 1 ? "/\(given[1])" : ""
            )
        }
        if p.all == false {
            throw .invalidParams("all must be true; to delete some, give identifiers or groupIdentifier.", at: "/all")
        }

        let audit = AuditRecord(app: p.app)
        guard let app = interactions.key(uid: caller.uid, app: p.app, identifier: "")?.app else {
            return MethodOutcome(result: DeleteInteractionsResult(deleted: 0), audit: audit)
        }
        var deleted = 0
        if let identifiers = p.identifiers {
            for identifier in Set(identifiers)
            where interactions.remove(InteractionKey(uid: caller.uid, app: app, identifier: identifier)) != nil {
                deleted += 1
            }
        } else if let group = p.groupIdentifier {
            deleted = interactions.removeAll(uid: caller.uid, app: app) { $0.interaction.groupIdentifier == group }.count
        } else {
            deleted = interactions.removeAll(uid: caller.uid, app: app) { _ in true }.count
        }
        return MethodOutcome(result: DeleteInteractionsResult(deleted: deleted), audit: audit)
    }
}
