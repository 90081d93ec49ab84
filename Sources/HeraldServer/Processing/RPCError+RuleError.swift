import HeraldCore
import HeraldProtocol

extension RPCError {
    /// The wire's error for a broken rule: its kind becomes Herald's code, its path a JSON
    /// Pointer into params (`data.pointer`, `~` and `/` escaped), its limit `data.limit`.
    ///
    /// The one place where the rules' errors become JSON-RPC errors.
    package init(_ error: RuleError) {
        var extraData = JSONObject()
        if let limit = error.limit {
            extraData["limit"] = .number(JSONNumber(limit))
        }
        self.init(
            Self.code(of: error.code),
            reason: error.reason,
            pointer: JSONPointer(error.path).description,
            extraData: extraData
        )
        isRoutineRefusal = error.isRoutineRefusal
    }

    /// Herald's code for a kind of broken rule.
    static func code(of code: RuleError.Code) -> ErrorCode {
        switch code {
        case .invalidParams: .invalidParams
        case .interactionNotFound: .interactionNotFound
        case .cannotProvideContent: .cannotProvideContent
        case .invalidParticipants: .invalidParticipants
        case .focusAuthorizationRequired: .focusAuthorizationRequired
        case .capabilityRequired: .capabilityRequired
        case .permissionDenied: .permissionDenied
        case .identifierConflict: .identifierConflict
        case .notificationNotFound: .notificationNotFound
        default: .internalError
        }
    }
}

extension JSONPointer {
    /// The pointer to the member at `path`: its member names and positions as tokens.
    init(_ path: MemberPath) {
        self.init(
            tokens: path.components.map { component in
                switch component {
                case .member(let name): name
                case .index(let index): String(index)
                }
            }
        )
    }
}
