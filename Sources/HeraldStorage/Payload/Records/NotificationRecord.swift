import FoundationEssentials
import HeraldCore
import HeraldProtocol

/// A notification of a uid's list as the snapshot keeps it, by the member names of format
/// 3 and 4 (what `HeraldNotification`'s synthesized `Codable` wrote then), fixed here so
/// that a change to the wire type does not change the file. What a presenter is given on
/// top (`actions`, `categoryOptions`) is kept where it was given: in a waiting response.
enum NotificationRecord {
    static func json(_ notification: HeraldNotification, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 10)
        members.add("actions", notification.actions, CategoryRecord.actionJSON)
        members.add("app", notification.app)
        members.add("categoryOptions", notification.categoryOptions)
        members.add("content", ContentRecord.json(notification.content, style))
        members.add("deliveredAt", notification.deliveredAt)
        members.add("delivery", DeliveryRecord.json(notification.delivery, style))
        members.add("identifier", notification.identifier)
        members.add("receivedAt", notification.receivedAt)
        members.add("snoozedUntil", notification.snoozedUntil)
        members.add("state", notification.state)
        return members.value
    }

    static func read(_ record: RecordReader) throws(RecordDamage) -> HeraldNotification {
        var notification = HeraldNotification(
            identifier: try record.string("identifier"),
            app: try record.string("app"),
            content: try record.record("content", ContentRecord.read),
            delivery: try record.record("delivery", DeliveryRecord.read),
            state: try record.enumCase("state"),
            receivedAt: try record.date("receivedAt"),
            deliveredAt: try record.optionalDate("deliveredAt"),
            snoozedUntil: try record.optionalDate("snoozedUntil")
        )
        notification.actions = try record.optionalRecords("actions", CategoryRecord.readAction)
        notification.categoryOptions = try record.optionalCases("categoryOptions")
        return notification
    }
}

enum ContentRecord {
    static func json(_ content: NotificationContent, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 14)
        members.addClientJSON("attachments", content.attachments)
        members.add("badge", content.badge)
        members.add("body", content.body)
        members.add("categoryIdentifier", content.categoryIdentifier)
        members.add("communication", content.communication.map { CommunicationRecord.json($0, style) })
        members.addClientJSON("filterCriteria", content.filterCriteria)
        members.add("interruptionLevel", content.interruptionLevel)
        members.add("relevanceScore", content.relevanceScore)
        members.addClientJSON("sound", content.sound)
        members.add("subtitle", content.subtitle)
        members.add("targetContentIdentifier", content.targetContentIdentifier)
        members.add("threadIdentifier", content.threadIdentifier)
        members.add("title", content.title)
        members.addClientJSON("userInfo", content.userInfo)
        return members.value
    }

    static func read(_ record: RecordReader) throws(RecordDamage) -> NotificationContent {
        NotificationContent(
            title: try record.optionalString("title"),
            subtitle: try record.optionalString("subtitle"),
            body: try record.optionalString("body"),
            threadIdentifier: try record.optionalString("threadIdentifier"),
            categoryIdentifier: try record.optionalString("categoryIdentifier"),
            targetContentIdentifier: try record.optionalString("targetContentIdentifier"),
            interruptionLevel: try record.optionalCase("interruptionLevel"),
            relevanceScore: try record.optionalDouble("relevanceScore"),
            filterCriteria: try record.optionalClientJSON("filterCriteria"),
            badge: try record.optionalInteger("badge"),
            sound: try record.optionalClientJSON("sound"),
            attachments: try record.optionalClientJSON("attachments"),
            userInfo: try record.optionalClientJSON("userInfo"),
            communication: try record.optionalRecord("communication", CommunicationRecord.read)
        )
    }
}

enum CommunicationRecord {
    static func json(_ communication: CommunicationInfo, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 8)
        members.add("avatar", communication.avatar.map { ImageRecord.json($0, style) })
        members.add("conversationIdentifier", communication.conversationIdentifier)
        members.add("isGroup", communication.isGroup)
        members.add("isReplyToCurrentUser", communication.isReplyToCurrentUser)
        members.add("mentionsCurrentUser", communication.mentionsCurrentUser)
        members.add("recipients", communication.recipients, PersonRecord.json)
        members.add("sender", communication.sender.map { PersonRecord.json($0, style) })
        members.add("type", communication.type)
        return members.value
    }

    static func read(_ record: RecordReader) throws(RecordDamage) -> CommunicationInfo {
        CommunicationInfo(
            type: try record.enumCase("type"),
            conversationIdentifier: try record.optionalString("conversationIdentifier"),
            sender: try record.optionalRecord("sender", PersonRecord.read),
            recipients: try record.records("recipients", PersonRecord.read),
            isGroup: try record.bool("isGroup"),
            avatar: try record.optionalRecord("avatar", ImageRecord.read),
            mentionsCurrentUser: try record.bool("mentionsCurrentUser"),
            isReplyToCurrentUser: try record.bool("isReplyToCurrentUser")
        )
    }
}

enum DeliveryRecord {
    static func json(_ delivery: Delivery, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 9)
        members.add("announce", delivery.announce)
        members.add("breaksThroughFocus", delivery.breaksThroughFocus)
        members.add("breaksThroughSummary", delivery.breaksThroughSummary)
        members.add("bypassesRinger", delivery.bypassesRinger)
        members.add("deliverAt", delivery.deliverAt)
        members.add("lightsScreen", delivery.lightsScreen)
        members.add("presentation", delivery.presentation)
        members.add("reasons", delivery.reasons) { reason, style in
            var members = RecordMembers(style, capacity: 3)
            members.add("causes", reason.causes)
            members.add("code", reason.code)
            members.add("message", reason.message)
            return members.value
        }
        members.add("sound", delivery.sound)
        return members.value
    }

    static func read(_ record: RecordReader) throws(RecordDamage) -> Delivery {
        Delivery(
            presentation: try record.enumCase("presentation"),
            deliverAt: try record.optionalDate("deliverAt"),
            sound: try record.bool("sound"),
            lightsScreen: try record.bool("lightsScreen"),
            breaksThroughFocus: try record.bool("breaksThroughFocus"),
            breaksThroughSummary: try record.bool("breaksThroughSummary"),
            bypassesRinger: try record.bool("bypassesRinger"),
            announce: try record.bool("announce"),
            reasons: try record.records("reasons") { reason throws(RecordDamage) in
                DeliveryReason(code: try reason.enumCase("code"), message: try reason.string("message"), causes: try reason.optionalCases("causes"))
            }
        )
    }
}

enum ResponseRecord {
    static func json(_ response: NotificationResponse, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 6)
        members.add("actionIdentifier", response.actionIdentifier)
        members.add("app", response.app)
        members.add("identifier", response.identifier)
        members.add("notification", NotificationRecord.json(response.notification, style))
        members.add("respondedAt", response.respondedAt)
        members.add("userText", response.userText)
        return members.value
    }

    static func read(_ record: RecordReader) throws(RecordDamage) -> NotificationResponse {
        NotificationResponse(
            app: try record.string("app"),
            identifier: try record.string("identifier"),
            actionIdentifier: try record.string("actionIdentifier"),
            userText: try record.optionalString("userText"),
            notification: try record.record("notification", NotificationRecord.read),
            respondedAt: try record.date("respondedAt")
        )
    }
}
