import HeraldProtocol

/// What the journal records about a method's result: identifiers, codes and the
/// delivery decision's reason codes — never the content of a communication.
///
/// Filled in one place per request: by the method's rules when it succeeds (its
/// ``MethodOutcome``), since only they know the interaction as stored and the delivery
/// decided; for a request that fails, by the server from its params, which is all there is.
public struct AuditRecord: Sendable, Hashable {
    public var app: String?
    public var interactionIdentifier: String?
    public var conversationIdentifier: String?
    /// `incoming` or `outgoing`.
    public var direction: String?
    /// `sendMessage` or `startCall`.
    public var intent: String?
    /// `alert`, `quiet` or `summary`.
    public var presentation: String?
    /// The delivery reason codes, in order.
    public var reasons: [String]
    /// The notification's identifier in the list (`update-content`).
    public var notificationIdentifier: String?
    /// The notifications a method removed or delivered, by identifier.
    public var notificationIdentifiers: [String]?

    public init(
        app: String? = nil,
        interactionIdentifier: String? = nil,
        conversationIdentifier: String? = nil,
        direction: String? = nil,
        intent: String? = nil,
        presentation: String? = nil,
        reasons: [String] = [],
        notificationIdentifier: String? = nil
    ) {
        self.app = app
        self.interactionIdentifier = interactionIdentifier
        self.conversationIdentifier = conversationIdentifier
        self.direction = direction
        self.intent = intent
        self.presentation = presentation
        self.reasons = reasons
        self.notificationIdentifier = notificationIdentifier
    }
}

/// A method's result and what the journal records about it.
public struct MethodOutcome<Result: Sendable>: Sendable {
    public var result: Result
    public var audit: AuditRecord

    public init(result: Result, audit: AuditRecord) {
        self.result = result
        self.audit = audit
    }
}

extension AuditRecord {
    /// Fills the interaction's members: identifier, conversation, direction and intent type.
    mutating func describe(_ interaction: Interaction) {
        interactionIdentifier = interaction.identifier
        direction = interaction.direction.rawValue
        intent = interaction.intent.type.rawValue
        if case .sendMessage(let message) = interaction.intent {
            conversationIdentifier = message.conversationIdentifier
        }
    }
}
