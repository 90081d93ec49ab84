import FoundationEssentials

/// An interaction an app donates: an incoming or outgoing message or call, with its
/// people (`INInteraction`).
package struct Interaction: Codable, Sendable, Hashable {
    /// Generated when absent; donating the same identifier again with the same
    /// interaction is a harmless retry.
    package var identifier: String?
    /// Groups interactions so that `delete-interactions` can remove them together.
    package var groupIdentifier: String?
    package var direction: InteractionDirection
    /// When it happened; the donation time when absent. Repeated calls compare this date.
    package var date: Date?
    package var intent: Intent

    package init(
        identifier: String? = nil,
        groupIdentifier: String? = nil,
        direction: InteractionDirection,
        date: Date? = nil,
        intent: Intent
    ) {
        self.identifier = identifier
        self.groupIdentifier = groupIdentifier
        self.direction = direction
        self.date = date
        self.intent = intent
    }
}

/// Whether the user received the interaction or made it (`INInteractionDirection`).
package enum InteractionDirection: String, JSONEnum, Hashable {
    case incoming
    case outgoing
}

extension Interaction: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            Interaction(
                identifier: try members.optional("identifier"),
                groupIdentifier: try members.optional("groupIdentifier"),
                direction: try members.required("direction"),
                date: try members.optional("date"),
                intent: try members.required("intent")
            )
        }
    }
}
