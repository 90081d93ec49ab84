/// `update-content`: turn a notification's content into a communication notification
/// and decide its delivery — what a Notification Service Extension does with
/// `content.updating(from: intent)`.
package enum UpdateContentMethod: HeraldMethod {
    package static let name = "update-content"
    package static let access: MethodAccess = .app
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "afe661ecb1d342169dc1ccd79572fa78", error: "a2a8bc37233241819d22ef54b85b7640")
    package typealias Params = UpdateContentParams
    package typealias Result = UpdateContentResult
}

package struct UpdateContentParams: Codable, Sendable, Hashable {
    package var app: String
    /// The notification's identifier in the list, 1–255 characters; the same (uid, app,
    /// identifier) again replaces the earlier notification. A lowercase UUID when absent.
    package var identifier: String?
    /// The donated interaction this notification is about; without it the notification
    /// is not a communication and only gets its delivery decision.
    package var interactionIdentifier: String?
    /// The content; exactly one of `content` and `payload`.
    package var content: NotificationContent?
    /// An APNs-style payload mapped onto the content (see ``APNsPayload``).
    package var payload: JSONValue?
    /// The gateway that passed the notification on for the app: the person's only.
    package var gateway: GatewayOrigin?
    /// Given only by the uid's own gateway: the standing grant it showed the notification under.
    package var grant: GrantUse?

    package init(
        app: String,
        identifier: String? = nil,
        interactionIdentifier: String? = nil,
        content: NotificationContent? = nil,
        payload: JSONValue? = nil,
        gateway: GatewayOrigin? = nil,
        grant: GrantUse? = nil
    ) {
        self.app = app
        self.identifier = identifier
        self.interactionIdentifier = interactionIdentifier
        self.content = content
        self.payload = payload
        self.gateway = gateway
        self.grant = grant
    }
}

extension UpdateContentParams: ParamsReadable {
    /// `payload` is read as it is: an APNs payload's top-level members are the sender's own
    /// (they become `userInfo`); ``APNsPayload`` reads `aps`.
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            UpdateContentParams(
                app: try members.required("app"),
                identifier: try members.optional("identifier"),
                interactionIdentifier: try members.optional("interactionIdentifier"),
                content: try members.optional("content"),
                payload: try members.optional("payload"),
                gateway: try members.optional("gateway"),
                grant: try members.optional("grant")
            )
        }
    }
}

package struct UpdateContentResult: Codable, Sendable, Hashable {
    /// The notification's identifier in the list: the one given, or the one generated.
    package var identifier: String
    package var content: NotificationContent
    package var delivery: Delivery
    /// To the uid's own gateway: its standing grant for this app from now on (absent: none;
    /// the app's next notifications go through heraldd first).
    package var grant: StandingGrant?
    /// With `grant` in the params: whether heraldd's decision is what the gateway showed
    /// (false: the gateway's bubble is replaced by the decision's, or closed).
    package var grantHonoured: Bool?

    package init(
        identifier: String, content: NotificationContent, delivery: Delivery, grant: StandingGrant? = nil, grantHonoured: Bool? = nil
    ) {
        self.identifier = identifier
        self.content = content
        self.delivery = delivery
        self.grant = grant
        self.grantHonoured = grantHonoured
    }
}

/// Written directly: `update-content` answers with it on every call (see `JSONDirectEncodable`).
extension UpdateContentResult: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("identifier", identifier)
        members.add("content", content)
        members.add("delivery", delivery)
        members.add("grant", grant)
        members.add("grantHonoured", grantHonoured)
    }
}
