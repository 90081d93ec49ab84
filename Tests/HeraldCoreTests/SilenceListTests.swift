import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 31: a Focus that silences the people and apps it names and lets the rest
/// through, as iOS 16 does; the decision says which list matched.
@Suite struct SilenceListTests {
    typealias F = Fixtures

    private func deliver(
        _ level: InterruptionLevel? = nil, focus: FocusConfiguration, interaction: Interaction? = nil, app: String = F.app
    ) throws -> Delivery {
        var state = F.state()
        try state.focusOn(focus)
        if let interaction { try state.donate(interaction) }
        return try state.updateContent(
            UpdateContentParams(app: app, identifier: "n1", interactionIdentifier: interaction?.identifier, content: F.content(level)),
            caller: F.user, now: F.now
        ).result.delivery
    }

    @Test func aSilencedAppIsHeldBackAndEveryOtherComesThrough() throws {
        let focus = FocusConfiguration(name: "Sleep", silencedApps: [F.otherApp])
        let other = try deliver(focus: focus, app: F.otherApp)
        #expect(other.codes == ["silencedByFocus"] && other.presentation == .quiet)
        #expect(other.reasons[0].causes == [.appSilenced], "the decision names the list that matched")
        #expect(other.reasons[0].message.contains("silenced apps"))
        let chat = try deliver(focus: focus)
        #expect(chat.codes == ["notSilencedByFocus", "delivered"] && chat.breaksThroughFocus)
    }

    @Test func aSilencedPersonIsHeldBackAndEveryoneElseComesThrough() throws {
        let focus = FocusConfiguration(name: "Sleep", silencedPeople: [Person(handle: .init(value: "+15550100"))])
        let bo = try deliver(focus: focus, interaction: F.message(sender: F.bo))
        #expect(bo.codes == ["silencedByFocus"] && bo.reasons[0].causes == [.senderSilenced])
        let ann = try deliver(focus: focus, interaction: F.message())
        #expect(ann.codes == ["notSilencedByFocus", "delivered"])
        let call = try deliver(focus: focus, interaction: F.call())
        #expect(call.codes == ["silencedByFocus"], "a call from a silenced caller too")
    }

    @Test func timeSensitiveAndCriticalStillFollowTheFocusSettings() throws {
        var focus = FocusConfiguration(name: "Sleep", silencedApps: [F.app])
        #expect(try deliver(.timeSensitive, focus: focus).codes == ["timeSensitiveAllowedByFocus", "delivered"])
        focus.allowTimeSensitive = false
        let held = try deliver(.timeSensitive, focus: focus)
        #expect(held.codes == ["silencedByFocus"] && held.reasons[0].causes == [.appSilenced, .timeSensitiveNotAllowed])
    }

    @Test func aFocusEitherAllowsOrSilencesAndAnEmptySilenceListGoesBackToAllowing() throws {
        var state = F.state()
        let both = ruleError {
            try state.setFocus(
                SetFocusParams(focus: FocusConfiguration(name: "Sleep", allowedApps: [F.app], silencedApps: [F.otherApp])),
                caller: F.user, now: F.now)
        }
        #expect(both?.code == .invalidParams && both?.path == ["focus", "silencedApps"])
        let badApp = ruleError {
            try state.setFocus(SetFocusParams(focus: FocusConfiguration(name: "Sleep", silencedApps: ["not an app"])), caller: F.user, now: F.now)
        }
        #expect(badApp?.path == ["focus", "silencedApps", .index(0)])
        try state.focusOn(FocusConfiguration(name: "Sleep", silencedApps: [F.otherApp]))
        #expect(state.isFocused(uid: 1000, app: F.otherApp) && !state.isFocused(uid: 1000, app: F.app), "request-focus tells each app")
        let update = FocusUpdate(name: "Sleep", silencedApps: [])
        #expect(update.applied(to: FocusConfiguration(name: "Sleep", silencedApps: [F.otherApp])).silencesNamed == false)
    }
}
