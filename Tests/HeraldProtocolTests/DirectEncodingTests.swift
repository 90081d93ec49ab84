import Foundation
import Testing

@testable import HeraldProtocol

/// The results that write themselves (`JSONDirectEncodable`) against `Encodable`.
@Suite struct DirectEncodingTests {
    @Test(arguments: [
        DonateResult(identifier: "m-17", donatedAt: Date(timeIntervalSince1970: 1_795_356_120.25)),
        DonateResult(identifier: "", donatedAt: Date(timeIntervalSince1970: 0)),
        DonateResult(identifier: "with \"quotes\" and ünïcode", donatedAt: Date(timeIntervalSince1970: -1.0005)),
    ])
    func donateResultIsWhatEncodableWrites(result: DonateResult) throws {
        let (direct, throughEncodable) = try bothWays(result)
        #expect(direct == throughEncodable)
    }

    /// Authorized (a status), then not (null written, not left out), for every status.
    @Test(arguments: [
        RequestFocusResult(authorizationStatus: .authorized, focusStatus: FocusStatus(isFocused: true)),
        RequestFocusResult(authorizationStatus: .authorized, focusStatus: FocusStatus(isFocused: false)),
        RequestFocusResult(authorizationStatus: .denied, focusStatus: nil),
        RequestFocusResult(authorizationStatus: .notDetermined, focusStatus: nil),
        RequestFocusResult(authorizationStatus: .restricted, focusStatus: nil),
    ])
    func requestFocusResultIsWhatEncodableWrites(result: RequestFocusResult) throws {
        let (direct, throughEncodable) = try bothWays(result)
        #expect(direct == throughEncodable)
    }

    /// Every member set, then none of the optional ones: each `add` is seen both ways.
    static let updateContentResults: [UpdateContentResult] = {
        let image = NotificationImage(url: "file:///avatars/ana.png", data: "aGk=", mimeType: "image/png")
        let ana = Person(
            handle: PersonHandle(value: "ana@example.org", type: .emailAddress),
            displayName: "Ana",
            nameComponents: NameComponents(givenName: "Ana", familyName: "Lima", nickname: "A"),
            image: image,
            contactIdentifier: "c-1",
            customIdentifier: "u-1",
            aliases: [PersonHandle(value: "+15550100", type: .phoneNumber), PersonHandle(value: "ana")],
            suggestionType: .instantMessageAddress,
            isMe: false
        )
        let full = UpdateContentResult(
            identifier: "n-1",
            content: NotificationContent(
                title: "Ana", subtitle: "Team", body: "Lunch?", threadIdentifier: "t", categoryIdentifier: "c",
                targetContentIdentifier: "x", interruptionLevel: .timeSensitive, relevanceScore: 0.25,
                filterCriteria: "work", badge: 3, sound: ["critical": true, "volume": 0.5],
                attachments: [["url": "file:///a.png"]], userInfo: ["k": nil],
                communication: CommunicationInfo(
                    type: .sendMessage, conversationIdentifier: "g", sender: ana, recipients: [ana, Person(displayName: "Bo")],
                    isGroup: true, avatar: image, mentionsCurrentUser: true, isReplyToCurrentUser: true
                )
            ),
            delivery: Delivery(
                presentation: .summary, deliverAt: Date(timeIntervalSince1970: 1_795_356_120.5), sound: true,
                lightsScreen: true, breaksThroughFocus: true, breaksThroughSummary: true, bypassesRinger: true, announce: true,
                reasons: [DeliveryReason(code: .heldForSummary, message: "Held for the 18:00 summary.")]
            )
        )
        let bare = UpdateContentResult(
            identifier: "", content: NotificationContent(relevanceScore: 1), delivery: Delivery(presentation: .quiet)
        )
        return [full, bare]
    }()

    @Test(arguments: updateContentResults)
    func updateContentResultIsWhatEncodableWrites(result: UpdateContentResult) throws {
        let (direct, throughEncodable) = try bothWays(result)
        #expect(direct == throughEncodable)
    }

    /// A notification as presenters and `list-notifications` see it: actions with every
    /// member, category options, delivered; then a scheduled one with nothing optional.
    static let notifications: [HeraldNotification] = {
        let result = updateContentResults[0]
        var full = HeraldNotification(
            identifier: "n-1", app: "org.example.chat", content: result.content, delivery: result.delivery, state: .delivered,
            receivedAt: Date(timeIntervalSince1970: 1_795_356_120.125), deliveredAt: Date(timeIntervalSince1970: 1_795_356_121)
        )
        full.actions = [
            NotificationAction(
                identifier: "reply", title: "Reply", options: [.foreground, .authenticationRequired],
                icon: NotificationActionIcon(systemImageName: "mail-reply-sender", templateImageName: "reply"),
                textInput: NotificationTextInput(buttonTitle: "Send", placeholder: "Message")
            ),
            NotificationAction(identifier: "like", title: "Like"),
        ]
        full.categoryOptions = [.customDismissAction, .allowAnnouncement]
        let bare = HeraldNotification(
            identifier: "", app: "a", content: NotificationContent(), delivery: Delivery(presentation: .summary), state: .scheduled,
            receivedAt: Date(timeIntervalSince1970: 0)
        )
        return [full, bare]
    }()

    /// `direct` and `throughEncodable` as compact text.
    /// What `writeJSON` writes, and the compact text of what `Encodable` gives: the text
    /// compares member order too.
    private func bothWays<Value: JSONDirectEncodable>(_ value: Value) throws -> (direct: String, throughEncodable: String) {
        (written(value), try JSONValueEncoder().encode(value).compactText)
    }

    /// What `writeJSON` appends, after bytes already written, which it keeps.
    private func written<Value: JSONDirectEncodable>(_ value: Value) -> String {
        var output = Array("[1,".utf8)
        value.writeJSON(to: &output)
        #expect(output.starts(with: Array("[1,".utf8)))
        return String(decoding: output.dropFirst(3), as: UTF8.self)
    }

    @Test(arguments: notifications)
    func notificationIsWhatEncodableWrites(notification: HeraldNotification) throws {
        let (direct, throughEncodable) = try bothWays(notification)
        #expect(direct == throughEncodable)
        let (listed, listedThroughEncodable) = try bothWays(ListNotificationsResult(notifications: Self.notifications))
        #expect(listed == listedThroughEncodable)
        let (event, eventThroughEncodable) = try bothWays(NotificationDelivered(uid: 1000, notification: notification))
        #expect(event == eventThroughEncodable)
        let summary = NotificationSummary(uid: 4_294_967_294, deliveredAt: Date(timeIntervalSince1970: 1_795_356_180), notifications: Self.notifications)
        let (summaryText, summaryThroughEncodable) = try bothWays(summary)
        #expect(summaryText == summaryThroughEncodable)
    }

    @Test(arguments: [nil, "On my way"])
    func responseIsWhatEncodableWrites(userText: String?) throws {
        let response = NotificationResponse(
            app: "org.example.chat", identifier: "n-1", actionIdentifier: userText == nil ? "default" : "reply", userText: userText,
            notification: Self.notifications[0], respondedAt: Date(timeIntervalSince1970: 1_795_356_200.75)
        )
        let (direct, throughEncodable) = try bothWays(response)
        #expect(direct == throughEncodable)
    }
}
