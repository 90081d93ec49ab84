import FoundationEssentials

/// `donate`: record an interaction — an incoming or outgoing message or call — before
/// its notification's content is provided (`INInteraction.donate`).
package enum DonateMethod: HeraldMethod {
    package static let name = "donate"
    package static let access: MethodAccess = .app
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "b7952d7964fd42f5b32c641aec601e0d", error: "df614d306e6b4f76ad020186fcf36fa2")
    package typealias Params = DonateParams
    package typealias Result = DonateResult
}

package struct DonateParams: Codable, Sendable, Hashable {
    /// A reverse-DNS app name such as `org.example.chat`.
    package var app: String
    package var interaction: Interaction

    package init(app: String, interaction: Interaction) {
        self.app = app
        self.interaction = interaction
    }
}

extension DonateParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            DonateParams(app: try members.required("app"), interaction: try members.required("interaction"))
        }
    }
}

package struct DonateResult: Codable, Sendable, Hashable {
    /// The interaction's identifier, generated when the donation had none.
    package var identifier: String
    /// When Herald first recorded it; a retry returns the first donation's time.
    package var donatedAt: Date

    package init(identifier: String, donatedAt: Date) {
        self.identifier = identifier
        self.donatedAt = donatedAt
    }
}

/// Written directly: `donate` answers with it on every call (see `JSONDirectEncodable`).
extension DonateResult: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("identifier", identifier)
        members.add("donatedAt", donatedAt)
    }
}
