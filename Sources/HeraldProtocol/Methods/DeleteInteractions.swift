/// `delete-interactions`: forget donated interactions — by identifiers, by group, or all
/// of this (uid, app)'s (`INInteraction.delete`).
package enum DeleteInteractionsMethod: HeraldMethod {
    package static let name = "delete-interactions"
    package static let access: MethodAccess = .app
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "a84e32ba3f8941929561b6f5325da147", error: "bb28269acf6d4e2ead79eb08a570c41c")
    /// Deleting a group, or all of an app, scans the uid's interactions (about 200 ms for
    /// 300,000): answered on a thread of its own, so its event loop serves the others.
    package static let placement = MethodPlacement.thread

    /// At most this many interactions are deleted under one taking of the state's lock, a
    /// millisecond or so; as many identifiers are looked up and deleted on the event loop.
    package static let deletionStep = 1024

    /// Identifiers are looked up, not scanned for: a few of them stay on the event loop,
    /// where starting a thread would cost more than the look-up.
    package static func placement(for params: JSONNode?) -> MethodPlacement {
        guard let identifiers = params?[member: "identifiers"], identifiers.kind == .array, isLookUp(identifierCount: identifiers.count)
        else { return placement }
        return .eventLoop
    }

    /// Whether a call naming `identifierCount` identifiers (nil: a group, or all) is a
    /// look-up made under the state's lock at once, rather than a search on a copy.
    package static func isLookUp(identifierCount: Int?) -> Bool {
        identifierCount.map { $0 <= deletionStep } ?? false
    }
    package typealias Params = DeleteInteractionsParams
    package typealias Result = DeleteInteractionsResult
}

/// Exactly one of `identifiers`, `groupIdentifier` and `all: true`.
package struct DeleteInteractionsParams: Codable, Sendable, Hashable {
    package var app: String
    package var identifiers: [String]?
    package var groupIdentifier: String?
    package var all: Bool?

    package init(app: String, identifiers: [String]? = nil, groupIdentifier: String? = nil, all: Bool? = nil) {
        self.app = app
        self.identifiers = identifiers
        self.groupIdentifier = groupIdentifier
        self.all = all
    }
}

extension DeleteInteractionsParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            DeleteInteractionsParams(
                app: try members.required("app"),
                identifiers: try members.optional("identifiers"),
                groupIdentifier: try members.optional("groupIdentifier"),
                all: try members.optional("all")
            )
        }
    }
}

package struct DeleteInteractionsResult: Codable, Sendable, Hashable {
    /// How many of this (uid, app)'s interactions were deleted; unknown identifiers count 0.
    package var deleted: Int

    package init(deleted: Int) {
        self.deleted = deleted
    }
}
