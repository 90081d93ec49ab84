import Dispatch
import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// The snapshot's binary payload: every kind of interaction comes back whole, and damaged
/// bytes are refused with an error, never a crash.
@Suite struct BinaryStateCodingTests {
    typealias F = Fixtures

    /// A state with every kind of stored interaction and every optional member set.
    static func richState() throws -> HeraldState {
        var state = F.state()
        let rich = Person(
            handle: PersonHandle(value: "eve@example.org", type: .emailAddress),
            displayName: "Eve Moss",
            nameComponents: NameComponents(givenName: "Eve", familyName: "Moss", nickname: "E"),
            image: NotificationImage(data: "aGVsbG8=", mimeType: "image/png"),
            contactIdentifier: "contact-7",
            customIdentifier: "custom-7",
            aliases: [PersonHandle(value: "+44 20 7946 0000", type: .phoneNumber), PersonHandle(value: "eve")],
            suggestionType: .instantMessageAddress
        )
        try state.donate(F.message("m1", sender: rich, recipients: [F.bo, F.cy], groupName: "Trip", date: F.now - 60))
        try state.donate(
            F.message(
                "m2",
                direction: .outgoing,
                sender: nil,
                recipients: [rich],
                metadata: DonationMetadata(recipientCount: 3, mentionsCurrentUser: true, isReplyToCurrentUser: false)
            )
        )
        try state.donate(F.call("k1", contacts: [rich, F.dee], date: F.now - 30))
        try state.donate(F.call("k0", contacts: [F.dee], date: F.now - 20))
        try state.donate(F.call("k2", direction: .outgoing, contacts: [F.bo]), app: F.otherApp, caller: F.otherUser)
        for interaction in Self.everyOtherMember() {
            try state.donate(interaction, app: F.otherApp)
        }
        _ = try state.setFocusAuthorization(.init(app: F.app, uid: 1000, status: .authorized), caller: F.admin, now: F.now)
        try state.focusOn(FocusConfiguration(name: "Work", allowedPeople: [F.cy]))
        return state
    }

    /// A message and a call between them setting every member that `richState`'s others
    /// leave out.
    static func everyOtherMember() -> [Interaction] {
        var message = SendMessageIntent(
            sender: Person(handle: PersonHandle(value: "fay@example.org"), displayName: "Fay", isMe: false),
            recipients: [F.cy],
            content: "Photo",
            speakableGroupName: "Climbers",
            conversationIdentifier: "c-climb"
        )
        message.serviceName = "sms"
        message.outgoingMessageType = .audio
        message.groupImage = NotificationImage(data: "aGk=", mimeType: "image/jpeg")
        let call = StartCallIntent(
            contacts: [F.bo],
            callCapability: .videoCall,
            destinationType: .callBack,
            audioRoute: .bluetooth,
            callRecordToCallBack: .object(["id": .string("rec-1"), "missed": .bool(true)]),
            groupImage: NotificationImage(data: "aGk=", mimeType: "image/jpeg")
        )
        return [
            Interaction(
                identifier: "m-every",
                groupIdentifier: "g-climb",
                direction: .incoming,
                date: F.now - 5,
                intent: .sendMessage(message)
            ),
            Interaction(identifier: "k-every", groupIdentifier: "g-climb", direction: .outgoing, intent: .startCall(call)),
        ]
    }

    /// The state as canonical JSON, to compare two states member by member.
    static func canonicalJSON(_ state: HeraldState) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .secondsSince1970
        return String(decoding: try encoder.encode(state), as: UTF8.self)
    }

    @Test func everyKindOfInteractionRoundTrips() throws {
        let state = try Self.richState()
        var restored = try BinaryStateDecoder().decode(HeraldState.self, from: BinaryStateEncoder().encode(state))
        restored.configuration = state.configuration
        #expect(restored.interactionCount == 7)
        #expect(try Self.canonicalJSON(restored) == Self.canonicalJSON(state))
        // The rules still work on what came back: the call history was rebuilt.
        try restored.donate(F.call("k3", contacts: [F.dee], date: F.now), now: F.now)
        #expect(try restored.update("k3").result.delivery.codes == ["repeatedCall", "delivered"])
    }

    @Test func payloadsWrittenBeforeRecordChunksStillDecode() throws {
        let state = try Self.richState()
        var restored = try BinaryStateDecoder().decode(HeraldState.self, from: LegacyPayloadFixture.bytes)
        restored.configuration = state.configuration
        #expect(try Self.canonicalJSON(restored) == Self.canonicalJSON(state))
        try restored.donate(F.call("k3", contacts: [F.dee], date: F.now), now: F.now)
        #expect(try restored.update("k3").result.delivery.codes == ["repeatedCall", "delivered"])
    }

    @Test func recordsSpanningSeveralChunksKeepTheirDonationOrder() throws {
        var state = F.state(CoreConfiguration(timeZone: TimeZone(identifier: "UTC")!, maxInteractions: 200_000))
        let total = InteractionRecordLayout.chunkSize + 1500
        for index in 0..<total {
            try state.donate(F.message("m\(index)", conversation: "c\(index % 50)"), now: F.now + Double(index))
        }
        // Deleted out of order: their entries in the donation order are left behind, stale.
        for index in stride(from: 0, to: total, by: 7) {
            _ = try state.deleteInteractions(DeleteInteractionsParams(app: F.app, identifiers: ["m\(index)"]), caller: F.user, now: F.now)
        }
        let bytes = try BinaryStateEncoder().encode(state)
        // Encoded in parallel, chunks are runs of the donation order (fewer records where
        // some were deleted): the same state must come back.
        let inParallel = try BinaryStateEncoder(parallel: { count, work in
            DispatchQueue.concurrentPerform(iterations: count, execute: work)
        }).encode(state)
        let fromParallel = try BinaryStateDecoder().decode(HeraldState.self, from: inParallel)
        let sameFromParallel =
            fromParallel.interactions.map { [$0.key.identifier: $0.stored.interaction] }
            == state.interactions.map { [$0.key.identifier: $0.stored.interaction] }
        #expect(sameFromParallel)
        var restored = try BinaryStateDecoder().decode(HeraldState.self, from: bytes)
        restored.configuration = state.configuration
        #expect(restored.interactionCount == total - (total + 6) / 7)
        // Compared as one Bool: a failing comparison of two long arrays would be diffed for minutes.
        // Sequence numbers are not compared: a restored store numbers its interactions afresh.
        let sameOrder =
            restored.interactions.map { [$0.key.identifier: $0.stored.interaction] }
            == state.interactions.map { [$0.key.identifier: $0.stored.interaction] }
        #expect(sameOrder)
        // The oldest is still evicted first.
        restored.configuration.maxInteractions = restored.interactionCount
        try restored.donate(F.message("newest"), now: F.now + Double(total))
        #expect(restored.interactions.oldest?.key.identifier == "m2")
    }

    @Test func everyEnumCaseHasOneRecordNumber() {
        func check<T: CaseIterable & Hashable>(_ table: [T]) {
            #expect(table.count == T.allCases.count && Set(table) == Set(T.allCases), "\(T.self)")
        }
        check(InteractionRecordLayout.handleTypes)
        check(InteractionRecordLayout.suggestionTypes)
        check(InteractionRecordLayout.outgoingMessageTypes)
        check(InteractionRecordLayout.callCapabilities)
        check(InteractionRecordLayout.destinationTypes)
        check(InteractionRecordLayout.audioRoutes)
    }

    @Test func everyTruncationIsRefusedWithAnError() throws {
        let bytes = try BinaryStateEncoder().encode(try Self.richState())
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 400)) {
            #expect(throws: (any Error).self) {
                try BinaryStateDecoder().decode(HeraldState.self, from: Array(bytes.prefix(length)))
            }
        }
    }
}
