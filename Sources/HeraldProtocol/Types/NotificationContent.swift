/// A notification's content (`UNNotificationContent`), as an app provides it to
/// `update-content` and as Herald returns it.
///
/// Herald keeps every member it is given. For a communication it replaces `title` (and,
/// for a group, `subtitle`), fills `threadIdentifier` and `relevanceScore` when absent,
/// and adds `communication`.
package struct NotificationContent: Codable, Sendable, Hashable {
    package var title: String?
    package var subtitle: String?
    package var body: String?
    package var threadIdentifier: String?
    package var categoryIdentifier: String?
    package var targetContentIdentifier: String?
    /// `active` when absent.
    package var interruptionLevel: InterruptionLevel?
    /// 0–1: how the notification ranks in the summary.
    package var relevanceScore: Double?
    package var filterCriteria: JSONValue?
    package var badge: Int?
    /// A sound's name, or an object such as `{critical, name, volume}`.
    package var sound: JSONValue?
    package var attachments: JSONValue?
    package var userInfo: JSONValue?
    /// Added by Herald to a communication notification; ignored on input.
    package var communication: CommunicationInfo?

    package init(
        title: String? = nil,
        subtitle: String? = nil,
        body: String? = nil,
        threadIdentifier: String? = nil,
        categoryIdentifier: String? = nil,
        targetContentIdentifier: String? = nil,
        interruptionLevel: InterruptionLevel? = nil,
        relevanceScore: Double? = nil,
        filterCriteria: JSONValue? = nil,
        badge: Int? = nil,
        sound: JSONValue? = nil,
        attachments: JSONValue? = nil,
        userInfo: JSONValue? = nil,
        communication: CommunicationInfo? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.threadIdentifier = threadIdentifier
        self.categoryIdentifier = categoryIdentifier
        self.targetContentIdentifier = targetContentIdentifier
        self.interruptionLevel = interruptionLevel
        self.relevanceScore = relevanceScore
        self.filterCriteria = filterCriteria
        self.badge = badge
        self.sound = sound
        self.attachments = attachments
        self.userInfo = userInfo
        self.communication = communication
    }
}

/// How much a notification may interrupt (`UNNotificationInterruptionLevel`).
///
/// | level | sound | lights the screen | breaks through Focus and summary | bypasses the ringer |
/// |---|---|---|---|---|
/// | passive | no | no | no | no |
/// | active | yes | yes | no | no |
/// | timeSensitive | yes | yes | yes | no |
/// | critical | yes | yes | yes | yes |
package enum InterruptionLevel: String, JSONEnum, Hashable {
    case passive
    case active
    case timeSensitive
    case critical
}

extension NotificationContent: ParamsReadable {
    /// `filterCriteria`, `sound`, `attachments` and `userInfo` are the client's own JSON;
    /// `communication` is Herald's, ignored on input.
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            let content = NotificationContent(
                title: try members.optional("title"),
                subtitle: try members.optional("subtitle"),
                body: try members.optional("body"),
                threadIdentifier: try members.optional("threadIdentifier"),
                categoryIdentifier: try members.optional("categoryIdentifier"),
                targetContentIdentifier: try members.optional("targetContentIdentifier"),
                interruptionLevel: try members.optional("interruptionLevel"),
                relevanceScore: try members.optional("relevanceScore"),
                filterCriteria: try members.optional("filterCriteria"),
                badge: try members.optional("badge"),
                sound: try members.optional("sound"),
                attachments: try members.optional("attachments"),
                userInfo: try members.optional("userInfo")
            )
            members.ignored("communication")
            return content
        }
    }
}

/// Written directly: every `update-content` answers with it (see `JSONDirectEncodable`).
extension NotificationContent: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("title", title)
        members.add("subtitle", subtitle)
        members.add("body", body)
        members.add("threadIdentifier", threadIdentifier)
        members.add("categoryIdentifier", categoryIdentifier)
        members.add("targetContentIdentifier", targetContentIdentifier)
        members.add("interruptionLevel", interruptionLevel)
        members.add("relevanceScore", relevanceScore)
        members.add("filterCriteria", filterCriteria)
        members.add("badge", badge)
        members.add("sound", sound)
        members.add("attachments", attachments)
        members.add("userInfo", userInfo)
        members.add("communication", communication)
    }
}
