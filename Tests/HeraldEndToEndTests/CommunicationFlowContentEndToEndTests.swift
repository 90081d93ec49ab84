import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 3, end to end against the real heraldd: donate then update-content, and the exact
/// communication notification that comes back — one-to-one, groups, calls — and the
/// donation errors (outgoing, update before donate, isMe, retries).
@Suite("Communication flow: donate and update-content, end to end")
struct CommunicationFlowContentEndToEndTests {
    static let app = "org.example.chat"
    static let ann =
        #"{"handle":{"value":"ann@example.org","type":"emailAddress"},"displayName":"Ann Lee","image":{"url":"file:///var/lib/chat/ann.png"}}"#
    static let bo = #"{"handle":{"value":"+1 555 0101","type":"phoneNumber"},"nameComponents":{"givenName":"Bo","familyName":"Berg"}}"#
    static let cy = #"{"handle":{"value":"cy@example.org","type":"emailAddress"},"displayName":"Cy"}"#
    static let dee = #"{"handle":{"value":"+15550100","type":"phoneNumber"},"displayName":"Dee"}"#

    /// Donates `interaction` (JSON text) under the app and returns the donate response.
    @discardableResult
    private func donate(_ client: UnixSocketClient, _ interaction: String, app: String = app) throws -> JSONValue {
        try client.call("donate", ["app": .string(app), "interaction": json(interaction)])
    }

    private func update(_ client: UnixSocketClient, _ identifier: String, _ content: String = #"{"body":"Hi"}"#) throws -> JSONValue {
        try client.call(
            "update-content",
            ["app": .string(Self.app), "interactionIdentifier": .string(identifier), "content": json(content)]
        )
    }

    @Test("A one-to-one incoming message: the sender's name, no subtitle, the conversation's thread, the sender's avatar")
    func oneToOneMessage() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let donated = try donate(
            client,
            #"{"identifier":"m-1","direction":"incoming","intent":{"type":"sendMessage","sender":\#(Self.ann),"conversationIdentifier":"c-ann","content":"Lunch?"}}"#
        )
        #expect(donated[pointer: "/result/identifier"] == "m-1")
        #expect(donated[pointer: "/result/donatedAt"]?.stringValue?.hasSuffix("Z") == true)
        let response = try update(client, "m-1", #"{"title":"New message","body":"Lunch?","categoryIdentifier":"message"}"#)
        let expected = json(
            #"{"title":"Ann Lee","body":"Lunch?","threadIdentifier":"c-ann","categoryIdentifier":"message","communication":{"type":"sendMessage","conversationIdentifier":"c-ann","sender":\#(Self.ann),"recipients":[],"isGroup":false,"avatar":{"url":"file:///var/lib/chat/ann.png"},"mentionsCurrentUser":false,"isReplyToCurrentUser":false}}"#
        )
        #expect(response[pointer: "/result/content"] == expected)
        #expect(response[pointer: "/result/content/subtitle"] == nil)
        // The app set no category "message": no actions, and one reason says so.
        #expect(describeDelivery(response) == "alert sound lightsScreen announce [unknownCategory, delivered]")
    }

    @Test("A one-to-one message keeps the app's subtitle and its own threadIdentifier")
    func oneToOneKeepsSubtitle() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try donate(
            client,
            #"{"identifier":"m-1","direction":"incoming","intent":{"type":"sendMessage","sender":\#(Self.bo),"conversationIdentifier":"c-bo"}}"#
        )
        let response = try update(client, "m-1", #"{"subtitle":"Work chat","threadIdentifier":"t-7","body":"Hi"}"#)
        #expect(response[pointer: "/result/content/title"] == "Bo Berg")
        #expect(response[pointer: "/result/content/subtitle"] == "Work chat")
        #expect(response[pointer: "/result/content/threadIdentifier"] == "t-7")
        #expect(response[pointer: "/result/content/communication/avatar"] == nil)
    }

    @Test("A named group: the subtitle is speakableGroupName and the avatar the group image")
    func namedGroup() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try donate(
            client,
            #"{"identifier":"g-1","direction":"incoming","intent":{"type":"sendMessage","sender":\#(Self.bo),"recipients":[\#(Self.ann),\#(Self.cy)],"speakableGroupName":"Trip to Oslo","conversationIdentifier":"c-trip","groupImage":{"url":"https://example.org/trip.png"}}}"#
        )
        let response = try update(client, "g-1", #"{"title":"x","subtitle":"y","body":"Train at 9?"}"#)
        let expected = json(
            #"{"title":"Bo Berg","subtitle":"Trip to Oslo","body":"Train at 9?","threadIdentifier":"c-trip","communication":{"type":"sendMessage","conversationIdentifier":"c-trip","sender":\#(Self.bo),"recipients":[\#(Self.ann),\#(Self.cy)],"isGroup":true,"avatar":{"url":"https://example.org/trip.png"},"mentionsCurrentUser":false,"isReplyToCurrentUser":false}}"#
        )
        #expect(response[pointer: "/result/content"] == expected)
        #expect(describeDelivery(response) == "alert sound lightsScreen announce [delivered]")
    }

    @Test(
        "An unnamed group's subtitle summarizes the others",
        arguments: [
            ([], nil, "(none: one-to-one)"),
            (["ann"], nil, "To you & Ann Lee"),
            (["ann", "cy"], nil, "To you, Ann Lee & Cy"),
            (["ann", "cy", "dee"], nil, "To you, Ann Lee & 2 others"),
            (["ann"], 2, "To you, Ann Lee & 1 other"),
            (["ann"], 1, "To you & Ann Lee"),
            ([], 1, "To you & 1 other"),
            ([], 5, "To you & 5 others"),
            (["ann", "cy"], 4, "To you, Ann Lee & 3 others"),
        ] as [([String], Int?, String)]
    )
    func unnamedGroup(names: [String], recipientCount: Int?, subtitle: String) throws {
        let people = ["ann": Self.ann, "cy": Self.cy, "dee": Self.dee]
        let recipients = "[" + names.map { people[$0]! }.joined(separator: ",") + "]"
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let metadata = recipientCount.map { #","donationMetadata":{"recipientCount":\#($0)}"# } ?? ""
        let donated = try donate(
            client,
            #"{"identifier":"u-1","direction":"incoming","intent":{"type":"sendMessage","sender":\#(Self.bo),"recipients":\#(recipients),"conversationIdentifier":"c-u","groupImage":{"url":"https://example.org/g.png"}\#(metadata)}}"#
        )
        #expect(donated[pointer: "/result/identifier"] == "u-1")
        let response = try update(client, "u-1")
        let isGroup = subtitle.hasPrefix("To")
        #expect(response[pointer: "/result/content/title"] == "Bo Berg")
        #expect(response[pointer: "/result/content/subtitle"] == (isGroup ? .string(subtitle) : Optional<JSONValue>.none))
        #expect(response[pointer: "/result/content/communication/isGroup"] == .bool(isGroup))
        // The avatar is the group image for a group, else the sender's image (Bo has none).
        #expect(
            response[pointer: "/result/content/communication/avatar"]
                == (isGroup ? json(#"{"url":"https://example.org/g.png"}"#) : Optional<JSONValue>.none))
    }

    @Test("An APNs payload is mapped onto the content; an immutable one is 1008")
    func payload() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let ann = #"{"handle":{"value":"ann@example.org","type":"emailAddress"},"displayName":"Ann Lee"}"#
        try donate(
            client,
            #"{"identifier":"m-17","direction":"incoming","intent":{"type":"sendMessage","sender":\#(ann),"conversationIdentifier":"c-ann","content":"Lunch?"}}"#
        )
        let response = try client.call(
            "update-content",
            [
                "app": .string(Self.app), "interactionIdentifier": "m-17",
                "payload": json(
                    #"{"aps":{"alert":{"title":"Ann Lee","body":"Lunch?"},"mutable-content":1,"thread-id":"c-ann","sound":"default"},"messageId":"srv-991"}"#
                ),
            ]
        )
        let expected = json(
            #"{"title":"Ann Lee","body":"Lunch?","threadIdentifier":"c-ann","sound":"default","userInfo":{"messageId":"srv-991"},"communication":{"type":"sendMessage","conversationIdentifier":"c-ann","sender":\#(ann),"recipients":[],"isGroup":false,"mentionsCurrentUser":false,"isReplyToCurrentUser":false}}"#
        )
        #expect(response[pointer: "/result/content"] == expected)
        #expect(describeDelivery(response) == "alert sound lightsScreen announce [delivered]")
        let immutable = try client.call(
            "update-content",
            ["app": .string(Self.app), "interactionIdentifier": "m-17", "payload": json(#"{"aps":{"alert":{"body":"Lunch?"}}}"#)]
        )
        #expect(describeError(immutable) == "1008 /payload/aps/mutable-content")
        #expect(immutable[pointer: "/error/message"] == "Not mutable")
    }

    @Test("A one-to-one call: the caller's name, no subtitle, the caller's avatar")
    func oneToOneCall() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try donate(
            client,
            #"{"identifier":"k-1","direction":"incoming","intent":{"type":"startCall","contacts":[\#(Self.ann)],"callCapability":"videoCall"}}"#
        )
        let response = try update(client, "k-1", #"{"body":"Video call"}"#)
        let expected = json(
            #"{"title":"Ann Lee","body":"Video call","communication":{"type":"startCall","sender":\#(Self.ann),"recipients":[],"isGroup":false,"avatar":{"url":"file:///var/lib/chat/ann.png"},"mentionsCurrentUser":false,"isReplyToCurrentUser":false}}"#
        )
        #expect(response[pointer: "/result/content"] == expected)
        #expect(describeDelivery(response) == "alert sound lightsScreen announce [delivered]")
    }

    @Test("A group call says With, threads by groupIdentifier, and shows the group image")
    func groupCall() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try donate(
            client,
            #"{"identifier":"k-2","groupIdentifier":"g-family","direction":"incoming","intent":{"type":"startCall","contacts":[\#(Self.dee),\#(Self.ann),\#(Self.cy)],"groupImage":{"url":"https://example.org/family.png"}}}"#
        )
        let response = try update(client, "k-2", #"{"body":"Audio call"}"#)
        let expected = json(
            #"{"title":"Dee","subtitle":"With you, Ann Lee & Cy","body":"Audio call","threadIdentifier":"g-family","communication":{"type":"startCall","sender":\#(Self.dee),"recipients":[\#(Self.ann),\#(Self.cy)],"isGroup":true,"avatar":{"url":"https://example.org/family.png"},"mentionsCurrentUser":false,"isReplyToCurrentUser":false}}"#
        )
        #expect(response[pointer: "/result/content"] == expected)

        try donate(
            client,
            #"{"identifier":"k-3","direction":"incoming","intent":{"type":"startCall","contacts":[\#(Self.dee),\#(Self.ann)]}}"#
        )
        #expect(try update(client, "k-3")[pointer: "/result/content/subtitle"] == "With you & Ann Lee")
    }

    @Test("A mention gets relevanceScore 1 and the flags in communication")
    func mentionRelevance() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try donate(
            client,
            #"{"identifier":"m-1","direction":"incoming","intent":{"type":"sendMessage","sender":\#(Self.ann),"conversationIdentifier":"c","donationMetadata":{"mentionsCurrentUser":true}}}"#
        )
        let response = try update(client, "m-1")
        #expect(response[pointer: "/result/content/relevanceScore"]?.numberValue?.doubleValue == 1.0)
        #expect(response[pointer: "/result/content/communication/mentionsCurrentUser"] == true)
        #expect(response[pointer: "/result/content/communication/isReplyToCurrentUser"] == false)
    }

    @Test("Outgoing donations: accepted, but update-content on them is 1002")
    func outgoingDonations() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let message = try donate(
            client,
            #"{"identifier":"o-1","direction":"outgoing","intent":{"type":"sendMessage","recipients":[\#(Self.ann)],"conversationIdentifier":"c-ann","outgoingMessageType":"text"}}"#
        )
        #expect(message[pointer: "/result/identifier"] == "o-1")
        let counted = try donate(
            client,
            #"{"direction":"outgoing","intent":{"type":"sendMessage","conversationIdentifier":"c-big","donationMetadata":{"recipientCount":12}}}"#
        )
        // A generated identifier is a lowercase UUID.
        let generated = try #require(counted[pointer: "/result/identifier"]?.stringValue)
        #expect(UUID(uuidString: generated) != nil && generated == generated.lowercased())
        try donate(client, #"{"identifier":"o-call","direction":"outgoing","intent":{"type":"startCall","contacts":[\#(Self.bo)]}}"#)

        for identifier in ["o-1", generated, "o-call"] {
            #expect(describeError(try update(client, identifier)) == "1002 /interactionIdentifier")
        }
    }

    @Test("An outgoing message with a sender is 1003 at the sender")
    func outgoingWithSender() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let response = try donate(
            client,
            #"{"direction":"outgoing","intent":{"type":"sendMessage","sender":\#(Self.ann),"recipients":[\#(Self.cy)],"conversationIdentifier":"c-cy"}}"#
        )
        #expect(describeError(response) == "1003 /interaction/intent/sender")
        #expect(response[pointer: "/error/message"] == "Invalid participants")
    }

    @Test("An outgoing message without recipients or recipientCount is 1003; recipientCount below the recipients is -32602")
    func outgoingWithoutRecipients() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let none = try donate(client, #"{"direction":"outgoing","intent":{"type":"sendMessage","conversationIdentifier":"c"}}"#)
        #expect(describeError(none) == "1003 /interaction/intent/recipients")
        let tooFew = try donate(
            client,
            #"{"direction":"outgoing","intent":{"type":"sendMessage","recipients":[\#(Self.ann),\#(Self.cy)],"conversationIdentifier":"c","donationMetadata":{"recipientCount":1}}}"#
        )
        #expect(describeError(tooFew) == "-32602 /interaction/intent/donationMetadata/recipientCount")
        let incomingWithoutSender = try donate(
            client, #"{"direction":"incoming","intent":{"type":"sendMessage","conversationIdentifier":"c"}}"#)
        #expect(describeError(incomingWithoutSender) == "1003 /interaction/intent/sender")
        let callWithoutContacts = try donate(client, #"{"direction":"incoming","intent":{"type":"startCall","contacts":[]}}"#)
        #expect(describeError(callWithoutContacts) == "1003 /interaction/intent/contacts")
    }

    @Test("update-content before donate is 1001 at interactionIdentifier")
    func updateBeforeDonate() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let response = try update(client, "m-404")
        #expect(describeError(response) == "1001 /interactionIdentifier")
        #expect(response[pointer: "/error/message"] == "Interaction not found")
        // Donated under another app is not this app's.
        try donate(
            client,
            #"{"identifier":"m-9","direction":"incoming","intent":{"type":"sendMessage","sender":\#(Self.ann),"conversationIdentifier":"c"}}"#,
            app: "org.example.other"
        )
        #expect(describeError(try update(client, "m-9")) == "1001 /interactionIdentifier")
    }

    @Test("A person with isMe: true is 1003 at that person")
    func isMe() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let me = #"{"handle":{"value":"me@example.org","type":"emailAddress"},"isMe":true}"#
        let asSender = try donate(
            client, #"{"direction":"incoming","intent":{"type":"sendMessage","sender":\#(me),"conversationIdentifier":"c"}}"#)
        #expect(describeError(asSender) == "1003 /interaction/intent/sender")
        let asRecipient = try donate(
            client,
            #"{"direction":"incoming","intent":{"type":"sendMessage","sender":\#(Self.ann),"recipients":[\#(Self.cy),\#(me)],"conversationIdentifier":"c"}}"#
        )
        #expect(describeError(asRecipient) == "1003 /interaction/intent/recipients/1")
        let asContact = try donate(client, #"{"direction":"incoming","intent":{"type":"startCall","contacts":[\#(Self.dee),\#(me)]}}"#)
        #expect(describeError(asContact) == "1003 /interaction/intent/contacts/1")
    }

    @Test("A retried donate returns the first result; a different interaction with the same identifier is 1007")
    func retryAndConflict() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let interaction =
            #"{"identifier":"m-17","direction":"incoming","intent":{"type":"sendMessage","sender":\#(Self.ann),"conversationIdentifier":"c-ann","content":"Lunch?"}}"#
        let first = try donate(client, interaction)
        usleep(20_000)
        let retry = try donate(client, interaction)
        #expect(first[pointer: "/result"] != nil)
        #expect(retry[pointer: "/result"] == first[pointer: "/result"])
        let different = try donate(client, interaction.replacingOccurrences(of: "Lunch?", with: "Dinner?"))
        #expect(describeError(different) == "1007 /interaction/identifier")
        #expect(different[pointer: "/error/message"] == "Identifier conflict")
        // An added date is a different interaction too.
        let dated = try donate(
            client, interaction.replacingOccurrences(of: #""direction""#, with: #""date":"2026-11-20T10:00:00Z","direction""#))
        #expect(describeError(dated) == "1007 /interaction/identifier")
        // The first one still stands.
        #expect(try update(client, "m-17")[pointer: "/result/content/title"] == "Ann Lee")
    }

    @Test("critical without the capability is 1005; without the communication capability an interaction is 1005")
    func capabilities() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        try donate(
            client,
            #"{"identifier":"m-1","direction":"incoming","intent":{"type":"sendMessage","sender":\#(Self.ann),"conversationIdentifier":"c"}}"#
        )
        let critical = try update(client, "m-1", #"{"body":"!","interruptionLevel":"critical"}"#)
        #expect(describeError(critical) == "1005 /content/interruptionLevel")
        try client.result("set-capabilities", ["app": .string(Self.app), "communication": false])
        #expect(describeError(try update(client, "m-1")) == "1005 /interactionIdentifier")
    }

    /// Issue 45, item 10: an ordinary 140 KB avatar given inline is taken (its bound is the
    /// image's 256 KiB decoded, not --max-string-bytes), and one past it is told to use a
    /// file: URL, at its own member, with its own limit.
    @Test("An inline avatar is held to the image's bound, not --max-string-bytes")
    func inlineAvatar() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        func donate(avatarBytes: Int) throws -> JSONValue {
            let data = Data(repeating: 7, count: avatarBytes).base64EncodedString()
            return try client.call("update-content", [
                "app": .string(Self.app), "identifier": .string("a-\(avatarBytes)"),
                "content": ["title": "Ann", "communication": ["type": "sendMessage", "conversationIdentifier": "c-ann", "sender": json(Self.cy),
                    "avatar": ["data": .string(data), "mimeType": "image/png"]]],
            ])
        }
        let taken = try donate(avatarBytes: 140_000)
        #expect(taken[pointer: "/result/identifier"] == "a-140000", "\(taken)")
        let refused = try donate(avatarBytes: 300_000)
        #expect(refused[pointer: "/error/code"] == -32602)
        #expect(refused[pointer: "/error/data/pointer"] == "/content/communication/avatar/data")
        #expect(refused[pointer: "/error/data/limit"] == 349_528)
        #expect(refused[pointer: "/error/data/reason"]?.stringValue?.contains("file: URL") == true, "\(refused)")
    }
}
