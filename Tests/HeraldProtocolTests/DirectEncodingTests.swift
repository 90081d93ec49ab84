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
        let direct = try JSONValueEncoder().encode(result)
        let throughEncodable = try JSONValueEncoder(writesDirectly: false).encode(result)
        #expect(direct == throughEncodable)
        // Equality ignores member order; the text does not.
        #expect(direct.compactText == throughEncodable.compactText)
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
        let direct = try JSONValueEncoder().encode(result)
        let throughEncodable = try JSONValueEncoder(writesDirectly: false).encode(result)
        #expect(direct.compactText == throughEncodable.compactText)
    }
}
