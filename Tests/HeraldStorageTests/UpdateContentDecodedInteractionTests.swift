import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

@testable import HeraldCore
@testable import HeraldStorage

/// `update-content`'s interaction decoded, and its communication content made, before the
/// state's lock (``DecodedInteraction``): the rules answer as they do when they decode under
/// the lock, and take it only for the donation it was decoded from.
@Suite("update-content's interaction decoded before the lock")
struct UpdateContentDecodedInteractionTests {
    typealias F = SnapshotFixtures

    /// What an `update-content` answered: its result and audit, or its error.
    private struct UpdateAnswer: Equatable {
        var result: UpdateContentResult?
        var audit: AuditRecord?
        var error: RuleError?
    }

    private static func updateAnswer(_ state: HeraldState, _ p: UpdateContentParams, decoded: DecodedInteraction?) -> UpdateAnswer {
        var state = state
        do {
            let outcome = try state.updateContentListing(p, decoded: decoded, caller: F.user, now: F.now + 1).outcome
            return UpdateAnswer(result: outcome.result, audit: outcome.audit)
        } catch {
            return UpdateAnswer(error: error)
        }
    }

    @Test("update-content answers the same with its interaction decoded before the lock as under it, and only for that donation")
    func updateContentDecodedBeforeTheLockAnswersTheSame() throws {
        var random = SeededRandom(seed: 109)
        var stale = 0
        for index in 0..<300 {
            let interaction = InteractionRecordBytesTests.interaction(index, &random)
            let identifier = try #require(interaction.identifier)
            var state = HeraldState(configuration: CoreConfiguration(timeZone: .utc))
            try F.donate(&state, interaction)
            var content = NotificationContent(title: "t", body: "b")
            if random.next() % 3 == 0 { content.threadIdentifier = "thread" }
            if random.next() % 3 == 0 { content.relevanceScore = 0.5 }
            let p = UpdateContentParams(app: F.app, identifier: "n\(index)", interactionIdentifier: identifier, content: content)
            let found = try #require(state.storedRecord(uid: F.user.uid, app: F.app, identifier: identifier))
            let decoded = DecodedInteraction(found, for: p, payloadContent: nil)
            #expect(
                Self.updateAnswer(state, p, decoded: decoded) == Self.updateAnswer(state, p, decoded: nil),
                "interaction \(index)")

            // Donated again as another interaction: what was decoded before is not taken.
            var other = InteractionRecordBytesTests.interaction(index + 1, &random)
            other.identifier = identifier
            _ = try state.deleteInteractions(DeleteInteractionsParams(app: F.app, identifiers: [identifier]), caller: F.user, now: F.now)
            try F.donate(&state, other)
            let answer = Self.updateAnswer(state, p, decoded: decoded)
            #expect(answer == Self.updateAnswer(state, p, decoded: nil), "interaction \(index), donated again")
            if let content = answer.result?.content, content != decoded.communicationContent { stale += 1 }
        }
        #expect(stale > 100, "most donations again make another notification than the first one's")
    }
}
