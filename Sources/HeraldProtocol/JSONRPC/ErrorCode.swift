/// A JSON-RPC error code: the specification's -32700…-32603, Herald's server errors
/// -32000…-32099, and Herald's application errors 1001….
package struct ErrorCode: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    package var rawValue: Int

    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    package var description: String { String(rawValue) }

    // JSON-RPC 2.0.
    /// Invalid JSON was received.
    package static let parseError = ErrorCode(rawValue: -32700)
    /// The JSON sent is not a valid Request object, or breaks one of Herald's request limits.
    package static let invalidRequest = ErrorCode(rawValue: -32600)
    /// The method does not exist.
    package static let methodNotFound = ErrorCode(rawValue: -32601)
    /// Invalid method parameters; `data.pointer` names the member at fault.
    package static let invalidParams = ErrorCode(rawValue: -32602)
    /// A fault inside Herald, never the client's.
    package static let internalError = ErrorCode(rawValue: -32603)

    // Server errors, reserved by JSON-RPC for the implementation.
    /// The daemon serves its maximum number of connections; try again later.
    package static let serverBusy = ErrorCode(rawValue: -32000)
    /// The connection sent part of a request and then nothing for `--read-timeout` seconds.
    package static let readTimeout = ErrorCode(rawValue: -32001)
    /// The daemon is shutting down and takes no new requests on this connection.
    package static let shuttingDown = ErrorCode(rawValue: -32002)

    // Herald.
    /// No interaction with that identifier was donated by this (uid, app).
    package static let interactionNotFound = ErrorCode(rawValue: 1001)
    /// The interaction cannot provide notification content (it is outgoing).
    package static let cannotProvideContent = ErrorCode(rawValue: 1002)
    /// The interaction's people break a rule (a sender on an outgoing message, the current user included).
    package static let invalidParticipants = ErrorCode(rawValue: 1003)
    /// The app's Focus authorization must be `authorized` for this.
    package static let focusAuthorizationRequired = ErrorCode(rawValue: 1004)
    /// The app lacks the capability (communication, timeSensitive, critical) this needs.
    package static let capabilityRequired = ErrorCode(rawValue: 1005)
    /// The caller is not an administrator.
    package static let permissionDenied = ErrorCode(rawValue: 1006)
    /// The identifier was donated before with a different interaction.
    package static let identifierConflict = ErrorCode(rawValue: 1007)
    /// The payload is not mutable: no `mutable-content: 1`, or no alert text.
    package static let notMutable = ErrorCode(rawValue: 1008)
    /// No notification with that identifier is in the (uid, app)'s list: never posted,
    /// removed, answered already, evicted or expired — or another uid's.
    package static let notificationNotFound = ErrorCode(rawValue: 1009)
    /// `snapshot` could not write the state folder (full, read-only, an I/O error); the
    /// snapshot before is intact. Herald's fault or its host's, never the client's.
    package static let snapshotFailed = ErrorCode(rawValue: 1010)
    /// A change refused while heraldd cannot write its state folder (the default
    /// `--on-write-failure refuse`); reads are answered, and changes are taken again once a
    /// snapshot succeeds.
    package static let stateNotWritable = ErrorCode(rawValue: 1011)

    /// The error object's `message` for this code: the specification's wording for its
    /// codes, a short title for Herald's.
    package var standardMessage: String {
        switch self {
        case .parseError: "Parse error"
        case .invalidRequest: "Invalid Request"
        case .methodNotFound: "Method not found"
        case .invalidParams: "Invalid params"
        case .internalError: "Internal error"
        case .serverBusy: "Server busy"
        case .readTimeout: "Read timeout"
        case .shuttingDown: "Shutting down"
        case .interactionNotFound: "Interaction not found"
        case .cannotProvideContent: "Cannot provide content"
        case .invalidParticipants: "Invalid participants"
        case .focusAuthorizationRequired: "Focus authorization required"
        case .capabilityRequired: "Capability required"
        case .permissionDenied: "Permission denied"
        case .identifierConflict: "Identifier conflict"
        case .notMutable: "Not mutable"
        case .notificationNotFound: "Notification not found"
        case .snapshotFailed: "Snapshot failed"
        case .stateNotWritable: "State not writable"
        default: "Server error"
        }
    }

    /// Whether the client caused the error (journal priority 4) rather than Herald (priority 3).
    package var isClientError: Bool {
        self != .internalError && self != .snapshotFailed && self != .stateNotWritable
    }
}
