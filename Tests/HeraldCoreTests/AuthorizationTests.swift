import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Focus authorization and capabilities belong to the uid; prompts are recorded once.
@Suite struct AuthorizationTests {
    typealias F = Fixtures

    static func prompted() -> HeraldState {
        F.state(CoreConfiguration(focusAuthorizationPolicy: .prompt, timeZone: .utc, maxAppsPerUID: 2))
    }

    @discardableResult
    static func ask(_ state: inout HeraldState, app: String = F.app, caller: Caller = F.user, now: Date = F.now) throws
        -> MethodOutcome<RequestFocusResult>
    {
        try state.requestFocus(RequestFocusParams(app: app, requestAuthorization: true), caller: caller, now: now)
    }

    @Test func aPromptIsRecordedOnceAndAnsweredByThePerson() throws {
        var state = Self.prompted()
        let first = try Self.ask(&state)
        #expect(first.result.authorizationStatus == .notDetermined)
        #expect(first.audit.authorizationRequest == .recorded && first.audit.settingUID == 1000)
        let again = try Self.ask(&state, now: F.now + 5)
        #expect(again.audit.authorizationRequest == .waiting)
        let listed = try state.listAuthorizationRequests(.init(), caller: F.user).result.requests
        #expect(listed == [AuthorizationRequested(uid: 1000, app: F.app, requestedAt: F.now)])
        #expect(try state.appSettings(.init(app: F.app), caller: F.user).result.authorizationRequestedAt == F.now)

        let answer = try state.setFocusAuthorization(.init(app: F.app, status: .authorized), caller: F.user, now: F.now + 9)
        #expect(answer.result == SetFocusAuthorizationResult(app: F.app, uid: 1000, status: .authorized))
        #expect(answer.audit.authorizationRequest == .answered && answer.audit.authorizationRequestedAt == F.now)
        #expect(answer.audit.authorization == "authorized" && answer.audit.previousAuthorization == "notDetermined")
        #expect(try state.listAuthorizationRequests(.init(), caller: F.user).result.requests.isEmpty)
        // Decided: asking again records nothing.
        let decided = try Self.ask(&state, now: F.now + 20)
        #expect(decided.result.authorizationStatus == .authorized && decided.audit.authorizationRequest == nil)
        #expect(state.storedAuthorizationRequests.isEmpty)
        // Answering again without a waiting request says nothing was answered.
        let change = try state.setFocusAuthorization(.init(app: F.app, status: .denied), caller: F.user, now: F.now + 30)
        #expect(change.audit.authorizationRequest == nil)
    }

    @Test func requestsAreBoundedPerUID() throws {
        var state = Self.prompted()
        try Self.ask(&state, app: "org.example.a")
        try Self.ask(&state, app: "org.example.b")
        let error = ruleError { try Self.ask(&state, app: "org.example.c") }
        #expect(error?.code == .invalidParams && error?.limit == 2 && error?.path == ["requestAuthorization"])
        // Another uid has its own room.
        try Self.ask(&state, app: "org.example.c", caller: F.otherUser)
        let all = try state.listAuthorizationRequests(.init(), caller: F.admin).result.requests
        #expect(all.map(\.app) == ["org.example.a", "org.example.b", "org.example.c"])
        #expect(try state.listAuthorizationRequests(.init(uid: 1001), caller: F.admin).result.requests.map(\.uid) == [1001])
    }

    @Test func aUIDDecidesItsOwnButNotAnothers() throws {
        var state = F.state()
        _ = try state.setFocusAuthorization(.init(app: F.app, status: .denied), caller: F.user, now: F.now)
        _ = try state.setFocusAuthorization(.init(app: F.app, uid: 1000, status: .authorized), caller: F.user, now: F.now)
        let other = ruleError { try state.setFocusAuthorization(.init(app: F.app, uid: 1001, status: .authorized), caller: F.user, now: F.now) }
        #expect(other?.code == .permissionDenied && other?.path == ["uid"])
        let capabilities = ruleError { try state.setCapabilities(.init(app: F.app, uid: 1001, timeSensitive: false), caller: F.user, now: F.now) }
        #expect(capabilities?.code == .permissionDenied && capabilities?.path == ["uid"])
        let read = ruleError { try state.appSettings(.init(app: F.app, uid: 1001), caller: F.user) }
        #expect(read?.code == .permissionDenied && read?.path == ["uid"])
        let list = ruleError { try state.listAuthorizationRequests(.init(uid: 1001), caller: F.user) }
        #expect(list?.code == .permissionDenied && list?.path == ["uid"])
        // An administrator names any uid.
        _ = try state.setFocusAuthorization(.init(app: F.app, uid: 1001, status: .denied), caller: F.admin, now: F.now)
        #expect(state.authorizationStatus(uid: 1001, app: F.app) == .denied)
        #expect(state.authorizationStatus(uid: 1000, app: F.app) == .authorized)
    }

    @Test func criticalAndRestrictedAreAnAdministrators() throws {
        var state = F.state()
        let own = try state.setCapabilities(.init(app: F.app, communication: false, timeSensitive: false), caller: F.user, now: F.now)
        #expect(own.result.capabilities == Capabilities(communication: false, timeSensitive: false, critical: false))
        #expect(own.audit.capabilitiesChanged == ["communication=false", "timeSensitive=false"] && own.audit.settingUID == 1000)
        for value in [true, false] {
            let error = ruleError { try state.setCapabilities(.init(app: F.app, critical: value), caller: F.user, now: F.now) }
            #expect(error?.code == .permissionDenied && error?.path == ["critical"])
        }
        let granted = try state.setCapabilities(.init(app: F.app, uid: 1000, critical: true), caller: F.admin, now: F.now)
        #expect(granted.audit.capabilitiesChanged == ["critical=true"])
        #expect(try state.appSettings(.init(app: F.app), caller: F.user).result.capabilities.critical)
        let same = try state.setCapabilities(.init(app: F.app, timeSensitive: false), caller: F.user, now: F.now)
        #expect(same.audit.capabilitiesChanged == [])

        let restrict = ruleError { try state.setFocusAuthorization(.init(app: F.app, status: .restricted), caller: F.user, now: F.now) }
        #expect(restrict?.code == .permissionDenied && restrict?.path == ["status"])
        _ = try state.setFocusAuthorization(.init(app: F.app, uid: 1000, status: .restricted), caller: F.admin, now: F.now)
        let undo = ruleError { try state.setFocusAuthorization(.init(app: F.app, status: .authorized), caller: F.user, now: F.now) }
        #expect(undo?.code == .permissionDenied && undo?.reason.contains("restricted") == true)
    }

    @Test func settingsBackAtTheDefaultsFreeTheirPlace() throws {
        var state = Self.prompted()
        _ = try state.setCapabilities(.init(app: "org.example.a", timeSensitive: false), caller: F.user, now: F.now)
        _ = try state.setFocusAuthorization(.init(app: "org.example.b", status: .denied), caller: F.user, now: F.now)
        let full = ruleError { try state.setFocusAuthorization(.init(app: "org.example.c", status: .denied), caller: F.user, now: F.now) }
        #expect(full?.code == .invalidParams && full?.limit == 2 && full?.path == ["app"])
        _ = try state.setCapabilities(.init(app: "org.example.a", timeSensitive: true), caller: F.user, now: F.now)
        _ = try state.setFocusAuthorization(.init(app: "org.example.c", status: .denied), caller: F.user, now: F.now)
        #expect(state.storedAppSettings.map(\.app) == ["org.example.b", "org.example.c"])
    }

    @Test func thePolicyAnswersAWaitingRequest() throws {
        var state = Self.prompted()
        try Self.ask(&state)
        state.configuration.focusAuthorizationPolicy = .deny
        let denied = try Self.ask(&state, now: F.now + 1)
        #expect(denied.result.authorizationStatus == .denied)
        #expect(denied.audit.authorizationRequest == .answered && denied.audit.authorization == "denied")
        #expect(state.storedAuthorizationRequests.isEmpty)
    }

    @Test func waitingRequestsRestoreOnlyForUndecidedApps() throws {
        var state = Self.prompted()
        try Self.ask(&state)
        var restored = F.state()
        let done = restored.restoreAuthorizationRequests(state.storedAuthorizationRequests)
        #expect(done)
        #expect(restored.storedAuthorizationRequests == state.storedAuthorizationRequests)
        let twice = state.storedAuthorizationRequests + state.storedAuthorizationRequests
        #expect(!F.state().restoreAuthorizationRequestsCopy(twice))
        var decided = F.state()
        _ = try decided.setFocusAuthorization(.init(app: F.app, status: .denied), caller: F.user, now: F.now)
        let refused = !decided.restoreAuthorizationRequests(state.storedAuthorizationRequests)
        #expect(refused)
    }
}

/// Reasons that name the real cause when a Focus holds a notification back.
@Suite struct SilencedReasonTests {
    typealias F = Fixtures
    static let work = FocusConfiguration(name: "Work")

    @Test func timeSensitiveNotAllowedByThisFocus() throws {
        var state = F.state()
        var strict = Self.work
        strict.allowTimeSensitive = false
        try state.focusOn(strict)
        let reason = try state.update(nil, F.content(.timeSensitive)).result.delivery.reasons.last
        #expect(reason?.code == .silencedByFocus)
        #expect(reason?.message == "The Focus \u{201C}Work\u{201D} is on and does not allow Time Sensitive notifications, so it is delivered quietly.")
        #expect(reason?.causes == [.timeSensitiveNotAllowed])
    }

    @Test func everyCauseIsListedInTheOrderTheMessageNamesThem() throws {
        var state = F.state()
        _ = try state.setFocusAuthorization(.init(app: F.app, status: .authorized), caller: F.user, now: F.now)
        var strict = Self.work
        strict.allowTimeSensitive = false
        try state.focusOn(strict)
        try state.donate(F.message("urgent", metadata: DonationMetadata(notifyRecipientAnyway: true)))
        let outcome = try state.update("urgent", F.content(.timeSensitive))
        let reason = outcome.result.delivery.reasons.last
        #expect(reason?.causes == [.timeSensitiveNotAllowed, .notifyAnywayIgnored])
        #expect(outcome.audit.silencedCauses == ["timeSensitiveNotAllowed", "notifyAnywayIgnored"])
        #expect(reason?.message.contains("does not allow Time Sensitive notifications; the sender's notify-anyway was ignored") == true)
    }

    @Test func notifyAnywayWithNothingSilencedBefore() throws {
        var state = F.state()
        _ = try state.setFocusAuthorization(.init(app: F.app, status: .authorized), caller: F.user, now: F.now)
        try state.focusOn(Self.work)
        try state.donate(F.message("early", metadata: DonationMetadata(notifyRecipientAnyway: true)))
        let reason = try state.update("early").result.delivery.reasons.last
        #expect(reason?.code == .silencedByFocus)
        #expect(reason?.message.contains("notify-anyway was ignored because the Focus \u{201C}Work\u{201D} silenced no earlier message") == true)
        #expect(reason?.causes == [.notifyAnywayIgnored])
        // A message without notify-anyway is simply not allowed: no cause.
        try state.donate(F.message("plain"))
        let plain = try state.update("plain")
        #expect(plain.result.delivery.reasons.last?.message.contains("does not allow this notification") == true)
        #expect(plain.result.delivery.reasons.last?.causes == nil && plain.audit.silencedCauses.isEmpty)
    }

    @Test func aRepeatedCallFromAnotherApp() throws {
        var state = F.state()
        try state.focusOn(Self.work)
        try state.donate(F.call("k1"), app: F.otherApp)
        try state.donate(F.call("k2"), now: F.now + 60)
        let reason = try state.update("k2", now: F.now + 60).result.delivery.reasons.last
        #expect(reason?.code == .silencedByFocus)
        #expect(reason?.message.contains("but through another app") == true)
        #expect(reason?.causes == [.repeatedCallFromAnotherApp])
        #expect(reason?.message.contains("Bo") == false && reason?.message.contains("555") == false)
        // Through the same app it is a repeated call.
        try state.donate(F.call("k3"), now: F.now + 90)
        #expect(try state.update("k3", now: F.now + 90).result.delivery.codes == ["repeatedCall", "delivered"])
        // Once the other app's call is forgotten, nothing earlier is found elsewhere.
        _ = try state.deleteInteractions(.init(app: F.otherApp, all: true), caller: F.user, now: F.now + 100)
        try state.donate(F.call("k4", contacts: [F.cy]), now: F.now + 100)
        #expect(try state.update("k4", now: F.now + 100).result.delivery.reasons.last?.message.contains("another app") == false)
    }
}

extension HeraldState {
    /// Restores into a copy, for a check that must not change `self`.
    func restoreAuthorizationRequestsCopy(_ stored: [StoredAuthorizationRequest]) -> Bool {
        var copy = self
        return copy.restoreAuthorizationRequests(stored)
    }
}
