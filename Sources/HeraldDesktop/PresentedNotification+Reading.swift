import HeraldProtocol

/// A notification as heraldd sends it to a presenter, read by ``EventReader``: the members
/// of `list-notifications`' entries, its content with its communication, and its delivery.
extension PresentedNotification {
    init(reading notification: EventReader) throws(RPCError) {
        self.init(
            identifier: try notification.string("identifier"),
            app: try notification.string("app"),
            content: try notification.record("content", NotificationContent.init(presented:)),
            delivery: try notification.record("delivery", Delivery.init(presented:)),
            state: try notification.string("state"),
            receivedAt: try notification.date("receivedAt"),
            deliveredAt: try notification.optionalDate("deliveredAt"),
            actions: try notification.optionalRecords("actions", PresentedAction.init(reading:))
        )
        categoryOptions = try notification.optionalStrings("categoryOptions")
    }
}

extension PresentedAction {
    init(reading action: EventReader) throws(RPCError) {
        self.init(
            identifier: try action.string("identifier"),
            title: try action.string("title"),
            options: try action.optionalStrings("options"),
            icon: try action.optionalRecord("icon") { icon throws(RPCError) in
                Icon(systemImageName: try icon.optionalString("systemImageName"), templateImageName: try icon.optionalString("templateImageName"))
            },
            textInput: action.optionalValue("textInput")
        )
    }
}

extension NotificationContent {
    /// The content as `update-content` returns it, `communication` included.
    init(presented content: EventReader) throws(RPCError) {
        self.init(
            title: try content.optionalString("title"),
            subtitle: try content.optionalString("subtitle"),
            body: try content.optionalString("body"),
            threadIdentifier: try content.optionalString("threadIdentifier"),
            categoryIdentifier: try content.optionalString("categoryIdentifier"),
            targetContentIdentifier: try content.optionalString("targetContentIdentifier"),
            interruptionLevel: try content.optionalCase("interruptionLevel"),
            relevanceScore: try content.optionalDouble("relevanceScore"),
            filterCriteria: content.optionalValue("filterCriteria"),
            badge: try content.optionalInteger("badge"),
            sound: content.optionalValue("sound"),
            attachments: content.optionalValue("attachments"),
            userInfo: content.optionalValue("userInfo"),
            communication: try content.optionalRecord("communication") { communication throws(RPCError) in
                CommunicationInfo(
                    type: try communication.enumCase("type"),
                    conversationIdentifier: try communication.optionalString("conversationIdentifier"),
                    sender: try communication.optionalRecord("sender", Person.init(presented:)),
                    recipients: try communication.records("recipients", Person.init(presented:)),
                    isGroup: try communication.bool("isGroup"),
                    avatar: try communication.optionalRecord("avatar", NotificationImage.init(presented:)),
                    mentionsCurrentUser: try communication.bool("mentionsCurrentUser"),
                    isReplyToCurrentUser: try communication.bool("isReplyToCurrentUser")
                )
            }
        )
    }
}

extension Person {
    init(presented person: EventReader) throws(RPCError) {
        func handle(_ handle: EventReader) throws(RPCError) -> PersonHandle {
            PersonHandle(value: try handle.string("value"), type: try handle.optionalCase("type"))
        }
        self.init(
            handle: try person.optionalRecord("handle", handle),
            displayName: try person.optionalString("displayName"),
            nameComponents: try person.optionalRecord("nameComponents") { name throws(RPCError) in
                NameComponents(
                    givenName: try name.optionalString("givenName"), familyName: try name.optionalString("familyName"),
                    nickname: try name.optionalString("nickname")
                )
            },
            image: try person.optionalRecord("image", NotificationImage.init(presented:)),
            contactIdentifier: try person.optionalString("contactIdentifier"),
            customIdentifier: try person.optionalString("customIdentifier"),
            aliases: try person.optionalRecords("aliases", handle),
            suggestionType: try person.optionalCase("suggestionType"),
            isMe: try person.optionalBool("isMe")
        )
    }
}

extension NotificationImage {
    init(presented image: EventReader) throws(RPCError) {
        self.init(url: try image.optionalString("url"), data: try image.optionalString("data"), mimeType: try image.optionalString("mimeType"))
    }
}

extension Delivery {
    init(presented delivery: EventReader) throws(RPCError) {
        self.init(
            presentation: try delivery.enumCase("presentation"),
            deliverAt: try delivery.optionalDate("deliverAt"),
            sound: try delivery.bool("sound"),
            lightsScreen: try delivery.bool("lightsScreen"),
            breaksThroughFocus: try delivery.bool("breaksThroughFocus"),
            breaksThroughSummary: try delivery.bool("breaksThroughSummary"),
            bypassesRinger: try delivery.bool("bypassesRinger"),
            announce: try delivery.bool("announce"),
            reasons: try delivery.records("reasons") { reason throws(RPCError) in
                DeliveryReason(code: try reason.enumCase("code"), message: try reason.string("message"), causes: try reason.optionalCases("causes"))
            }
        )
    }
}
