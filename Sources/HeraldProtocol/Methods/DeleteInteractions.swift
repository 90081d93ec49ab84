/// `delete-interactions`: forget donated interactions — by identifiers, by group, or all
/// of this (uid, app)'s (`INInteraction.delete`).
public enum DeleteInteractionsMethod: HeraldMethod {
    public static let name = "delete-interactions"
    public static let journalMessageIDs = JournalMessageIDs(ok: "a84e32ba3f8941929561b6f5325da147", error: "bb28269acf6d4e2ead79eb08a570c41c")
    public typealias Params = DeleteInteractionsParams
    public typealias Result = DeleteInteractionsResult
}

/// Exactly one of `identifiers`, `groupIdentifier` and `all: true`.
public struct DeleteInteractionsParams: Codable, Sendable, Hashable {
    public var app: String
    public var identifiers: [String]?
    public var groupIdentifier: String?
    public var all: Bool?

    public init(app: String, identifiers: [String]? = nil, groupIdentifier: String? = nil, all: Bool? = nil) {
        self.app = app
        self.identifiers = identifiers
        self.groupIdentifier = groupIdentifier
        self.all = all
    }
}

extension DeleteInteractionsParams: ParamsReadable {
    public init(reading value: ParamsReader) throws(RPCError) {
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

public struct DeleteInteractionsResult: Codable, Sendable, Hashable {
    /// How many of this (uid, app)'s interactions were deleted; unknown identifiers count 0.
    public var deleted: Int

    public init(deleted: Int) {
        self.deleted = deleted
    }
}
