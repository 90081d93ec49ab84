import FoundationEssentials
import HeraldProtocol

/// What a `delete-interactions` call deletes, found without changing anything.
///
/// Finding a group's interactions, or all of an app's, is a scan of the uid's interactions:
/// about 200 ms for 300,000. Made under the state's lock it would hold up every other
/// request for as long, so the server finds them on a copy of the state, outside the lock, and
/// removes them in steps (``steps(of:)``), each under the lock on its own, so that other
/// requests go between them. Each selected interaction is named by its key and its
/// donation's sequence: one donated again under the same identifier since is kept.
package struct InteractionDeletion: Sendable {
    /// A part of the selection, removed under the lock at once (``HeraldState/delete(_:)``).
    package struct Step: Sendable {
        let entries: ArraySlice<DonationOrder.Entry>
    }

    let entries: [DonationOrder.Entry]
    package let audit: AuditRecord

    /// How many interactions were selected.
    package var count: Int { entries.count }

    /// The selection in steps of at most `size` interactions.
    package func steps(of size: Int) -> [Step] {
        stride(from: 0, to: entries.count, by: max(1, size)).map { start in
            Step(entries: entries[start..<min(start + size, entries.count)])
        }
    }
}

extension HeraldState {
    /// `delete-interactions`: forgets this (uid, app)'s interactions named by exactly one
    /// of `identifiers`, `groupIdentifier` and `all: true`. Identifiers it never donated
    /// are not counted, so the count reveals nothing of anyone else's.
    package mutating func deleteInteractions(
        _ p: DeleteInteractionsParams, caller: Caller, now: Date
    ) throws(RuleError)
        -> MethodOutcome<DeleteInteractionsResult>
    {
        let deletion = try interactionDeletion(p, caller: caller)
        let deleted = deletion.steps(of: deletion.count).reduce(0) { $0 + delete($1) }
        return MethodOutcome(result: DeleteInteractionsResult(deleted: deleted), audit: deletion.audit)
    }

    /// The interactions `delete-interactions` with `p` deletes, checked and found; changes
    /// nothing, so it can run on a copy of the state.
    package func interactionDeletion(_ p: DeleteInteractionsParams, caller: Caller) throws(RuleError) -> InteractionDeletion {
        try AppName.validate(p.app)
        var given: [String] = []
        if p.identifiers != nil { given.append("identifiers") }
        if p.groupIdentifier != nil { given.append("groupIdentifier") }
        if p.all != nil { given.append("all") }
        guard given.count == 1 else {
            // None given: at the first of the choice, as every "nothing given" error points
            // (Protocol/README.md, "Errors"); too many: at the second given.
            throw .invalidParams(
                "Give exactly one of identifiers, groupIdentifier and all: true.",
                at: given.count > 1 ? [.member(given[1])] : ["identifiers"]
            )
        }
        if p.all == false {
            throw .invalidParams("all must be true; to delete some, give identifiers or groupIdentifier.", at: ["all"])
        }

        let audit = AuditRecord(app: p.app)
        guard let app = interactions.key(uid: caller.uid, app: p.app, identifier: "")?.app else {
            return InteractionDeletion(entries: [], audit: audit)
        }
        let entries: [DonationOrder.Entry]
        if let identifiers = p.identifiers {
            entries = Set(identifiers).compactMap { interactions.entry(at: InteractionKey(uid: caller.uid, app: app, identifier: $0)) }
        } else if let group = p.groupIdentifier {
            entries = interactions.select(uid: caller.uid, app: app) { $0.record.groupIdentifier == group }
        } else {
            entries = interactions.select(uid: caller.uid, app: app) { _ in true }
        }
        return InteractionDeletion(entries: entries, audit: audit)
    }

    /// Removes a step of a deletion: each interaction still stored as it was selected.
    /// Returns how many it removed.
    package mutating func delete(_ step: InteractionDeletion.Step) -> Int {
        interactions.remove(step.entries)
    }
}
