import FoundationEssentials
import HeraldProtocol

/// What the journal records about a method's result: identifiers, codes and the
/// delivery decision's reason codes — never the content of a communication.
///
/// Filled in one place per request: by the method's rules when it succeeds (its
/// ``MethodOutcome``), since only they know the interaction as stored and the delivery
/// decided; for a request that fails, by the server from its params, which is all there is.
package struct AuditRecord: Sendable, Hashable {
    package var app: String?
    package var interactionIdentifier: String?
    package var conversationIdentifier: String?
    /// `incoming` or `outgoing`.
    package var direction: String?
    /// `sendMessage` or `startCall`.
    package var intent: String?
    /// `alert`, `quiet` or `summary`.
    package var presentation: String?
    /// The delivery reason codes, in order.
    package var reasons: [String]
    /// The causes of a `silencedByFocus` reason (``SilencedCause``), in order; empty otherwise.
    package var silencedCauses: [String] = []
    /// The Focus that silenced the notification (`silencedByFocus`); nil otherwise.
    package var focus: String?
    /// The notification's identifier in the list (`update-content`).
    package var notificationIdentifier: String?
    /// The notifications a method removed or delivered, by identifier.
    package var notificationIdentifiers: [String]?
    /// The uid whose (uid, app) settings the method read or changed (it may be another's
    /// than the caller's, for an administrator).
    package var settingUID: UInt32?
    /// The Focus authorization the method set, when it set one; and the one before.
    package var authorization: String?
    package var previousAuthorization: String?
    /// The capabilities the method changed, as `name=value`, in the order communication,
    /// timeSensitive, critical; empty when it changed none.
    package var capabilitiesChanged: [String]?
    /// What became of the (uid, app)'s Focus authorization request.
    package var authorizationRequest: AuthorizationRequestChange?
    /// When the request answered was made (with `answered`).
    package var authorizationRequestedAt: Date?
    /// What `set-conversation` changed, as `mute=<RFC 3339 end>|forever|off` and
    /// `priority=true|false`.
    package var conversationControl: [String]?
    /// The burst cooldown window the method set, in seconds (`set-cooldown`).
    package var cooldownSeconds: Int?
    /// The gateway that passed the notification on (`freedesktop`, `portal`), and what it
    /// verified the app by (nil: named by the notification's hints).
    package var gateway: String?
    package var gatewayAppVerifiedBy: String?
    /// The standing grant the gateway showed the notification under, and whether the
    /// decision was what it showed (false: its bubble was replaced or closed).
    package var grant: Int?
    package var grantHonoured: Bool?

    package init(
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
package struct MethodOutcome<Result: Sendable>: Sendable {
    package var result: Result
    package var audit: AuditRecord

    package init(result: Result, audit: AuditRecord) {
        self.result = result
        self.audit = audit
    }
}

extension AuditRecord {
    /// The record of `app`'s interaction, as ``describe(_:)`` fills it, stored under `identifier`.
    init(app: String, describing interaction: Interaction, identifier: String) {
        var conversationIdentifier: String?
        if case .sendMessage(let message) = interaction.intent {
            conversationIdentifier = message.conversationIdentifier
        }
        self.init(
            app: app,
            interactionIdentifier: identifier,
            conversationIdentifier: conversationIdentifier,
            direction: interaction.direction.rawValue,
            intent: interaction.intent.type.rawValue
        )
    }

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

/// What a method did to a (uid, app)'s waiting Focus authorization request: the journal's
/// `HERALD_AUTHORIZATION_REQUEST`, and what the server tells presenters.
package enum AuthorizationRequestChange: String, Sendable, Hashable {
    /// A new request now waits (presenters are told `authorization-requested`).
    case recorded
    /// A request waited already; asking again recorded nothing new.
    case waiting
    /// The waiting request was decided (presenters are told `authorization-answered`).
    case answered
}
