import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 45, item 12: the order in which reasons let a notification through a Focus is
/// the decision's, and Protocol/DELIVERY.md and Protocol/README.md say the same order.
@Suite struct DeliveryOrderDocumentTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The reason codes of `text`, in the order they appear in backquotes.
    static func codes(in text: Substring) -> [DeliveryReasonCode] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }
            .compactMap { DeliveryReasonCode(rawValue: String($0.element)) }
    }

    static func document(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theDecisionFollowsFocusOrder() {
        // Every fact that lets it through holds; taking away the first each time shows the next.
        var facts = DeliveryDecision.FocusFacts(name: "Work")
        facts.silencesNamed = true
        facts.appAllowed = true
        facts.senderAllowed = true
        facts.priorityConversation = true
        facts.repeatedCall = true
        facts.notifiedAnyway = true
        facts.mentionAllowed = true
        var level = InterruptionLevel.critical
        var seen: [DeliveryReasonCode] = []
        for _ in DeliveryDecision.focusOrder {
            let delivery = DeliveryDecision(app: "org.example.chat", level: level, isCommunication: true, focus: facts).decide()
            guard let first = delivery.reasons.first?.code else { break }
            seen.append(first)
            switch first {
            case .criticalBreaksThroughFocus: level = .timeSensitive
            case .timeSensitiveAllowedByFocus: level = .active
            case .notSilencedByFocus: facts.silencesNamed = false
            case .appAllowedByFocus: facts.appAllowed = false
            case .senderAllowedByFocus: facts.senderAllowed = false
            case .priorityConversation: facts.priorityConversation = false
            case .repeatedCall: facts.repeatedCall = false
            case .notifiedAnyway: facts.notifiedAnyway = false
            default: facts.mentionAllowed = false
            }
        }
        #expect(seen == DeliveryDecision.focusOrder)
        let silenced = DeliveryDecision(app: "org.example.chat", level: level, isCommunication: true, focus: facts).decide()
        #expect(silenced.reasons.map(\.code) == [.silencedByFocus])
    }

    @Test func deliveryDocumentListsTheFocusOrder() throws {
        let text = try Self.document("Protocol/DELIVERY.md")
        let step = try #require(text.range(of: "- Step 2 (Focus)"))
        let end = try #require(text.range(of: "else `silencedByFocus`", range: step.upperBound..<text.endIndex))
        #expect(Self.codes(in: text[step.upperBound..<end.lowerBound]) == DeliveryDecision.focusOrder)
        // Every way a decision ends is named where DELIVERY.md says how decisions end.
        let ends = try #require(text.range(of: "- Every decision ends with a reason:"))
        let endsLine = text[ends.upperBound...].prefix { $0 != "." }
        #expect(
            Set(Self.codes(in: endsLine)) == [.passive, .silencedByFocus, .heldForSummary, .conversationMuted, .delivered, .cooledDown])
    }

    @Test func protocolDocumentListsTheFocusOrder() throws {
        let text = try Self.document("Protocol/README.md")
        let step = try #require(text.range(of: "2. **Focus.**"))
        let end = try #require(text.range(of: "If none holds", range: step.upperBound..<text.endIndex))
        #expect(Self.codes(in: text[step.upperBound..<end.lowerBound]) == DeliveryDecision.focusOrder)
    }
}
