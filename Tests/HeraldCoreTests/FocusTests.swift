import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

@Suite struct FocusTests {
    typealias F = Fixtures

    private func request(_ state: inout HeraldState, ask: Bool = true, app: String = Fixtures.app) throws -> RequestFocusResult {
        try state.requestFocus(.init(app: app, requestAuthorization: ask), caller: F.user, now: F.now).result
    }

    @Test func promptStaysNotDeterminedUntilAnAdministratorDecides() throws {
        var state = F.state()
        #expect(try request(&state) == RequestFocusResult(authorizationStatus: .notDetermined, focusStatus: nil))
        _ = try state.setFocusAuthorization(.init(app: F.app, uid: 1000, status: .authorized), caller: F.admin, now: F.now)
        #expect(try request(&state) == RequestFocusResult(authorizationStatus: .authorized, focusStatus: FocusStatus(isFocused: false)))
    }

    @Test func allowAndDenyDecideAtOnce() throws {
        var allow = F.state(CoreConfiguration(focusAuthorizationPolicy: .allow))
        #expect(try request(&allow, ask: false).authorizationStatus == .notDetermined)
        #expect(try request(&allow).authorizationStatus == .authorized)
        var deny = F.state(CoreConfiguration(focusAuthorizationPolicy: .deny))
        #expect(try request(&deny) == RequestFocusResult(authorizationStatus: .denied, focusStatus: nil))
        _ = try deny.setFocusAuthorization(.init(app: F.app, uid: 1000, status: .restricted), caller: F.admin, now: F.now)
        #expect(try request(&deny).authorizationStatus == .restricted)
    }

    @Test func isFocusedUnlessTheAppIsAllowed() throws {
        var state = F.state(CoreConfiguration(focusAuthorizationPolicy: .allow))
        _ = try request(&state)
        _ = try request(&state, app: F.otherApp)
        try state.focusOn(FocusConfiguration(name: "Work", allowedApps: [F.otherApp]))
        #expect(try request(&state).focusStatus == FocusStatus(isFocused: true))
        #expect(try request(&state, app: F.otherApp).focusStatus == FocusStatus(isFocused: false))
        #expect(state.focusStatus(uid: 1000, app: F.app, now: F.now) == FocusStatus(isFocused: true))
        #expect(state.focusStatus(uid: 1001, app: F.app, now: F.now) == nil)
        _ = try state.setFocus(.init(focus: nil), caller: F.user, now: F.now)
        #expect(state.focusStatus(uid: 1000, app: F.app, now: F.now) == FocusStatus(isFocused: false))
    }

    @Test func expireFocusEndsItOnce() throws {
        var state = F.state()
        try state.focusOn(FocusConfiguration(name: "Sleep", until: F.now + 10))
        _ = state.takeFocusChanges()
        let changes = [9, 10, 11].map { state.advanceFocuses(now: F.now + $0) ? state.takeFocusChanges().count : 0 }
        #expect(changes == [0, 1, 0])
        #expect(state.nextFocusChange == nil)
    }

    @Test func setFocusReturnsTheStateWithDefaults() throws {
        var state = F.state()
        let on = try state.setFocus(.init(focus: FocusConfiguration(name: "Work")), caller: F.admin, now: F.now).result
        #expect(
            on.focus
                == FocusConfiguration(
                    name: "Work", allowedPeople: [], allowedApps: [], allowTimeSensitive: true, allowRepeatedCalls: true,
                    allowMentions: false))
        #expect(try state.setFocus(.init(focus: nil), caller: F.admin, now: F.now).result == SetFocusResult(focus: nil))
    }

    @Test func setFocusValidates() {
        var state = F.state()
        func error(_ focus: FocusConfiguration) -> RuleError? {
            ruleError { try state.setFocus(.init(focus: focus), caller: F.admin, now: F.now) }
        }
        #expect(error(FocusConfiguration(name: ""))?.path == ["focus", "name"])
        #expect(error(FocusConfiguration(name: "W", allowedApps: ["ok.app", "bad app"]))?.path == ["focus", "allowedApps", 1])
        #expect(error(FocusConfiguration(name: "W", allowedPeople: [Person()]))?.path == ["focus", "allowedPeople", 0])
        #expect(error(FocusConfiguration(name: "W", until: F.now))?.path == ["focus", "until"])
    }

    @Test func anAllowedPersonMustBeAbleToMatch() {
        var state = F.state()
        func error(_ person: Person) -> RuleError? {
            ruleError { try state.setFocus(.init(focus: FocusConfiguration(name: "W", allowedPeople: [person])), caller: F.admin, now: F.now) }
        }
        let nameOnly = error(Person(displayName: "Bo"))
        #expect(nameOnly?.path == ["focus", "allowedPeople", 0])
        #expect(nameOnly?.reason.contains("contactIdentifier") == true)
        #expect(error(Person(displayName: "Bo", contactIdentifier: "")) != nil, "an empty identifier matches nobody")
        #expect(error(Person(contactIdentifier: "contact-42")) == nil)
        #expect(error(Person(customIdentifier: "u-7")) == nil)
        #expect(error(Person(aliases: [PersonHandle(value: "bo@example.org")])) == nil)
        #expect(error(Person(handle: PersonHandle(value: ""), contactIdentifier: "c"))?.path == ["focus", "allowedPeople", 0, "handle", "value"])
    }

    @Test func authorizationDefaultsToTheCallersUid() throws {
        var state = F.state()
        let result = try state.setFocusAuthorization(.init(app: F.app, status: .authorized), caller: F.admin, now: F.now).result
        #expect(result == SetFocusAuthorizationResult(app: F.app, uid: 0, status: .authorized))
        #expect(state.focusStatus(uid: 1000, app: F.app, now: F.now) == nil)
        #expect(state.focusStatus(uid: 0, app: F.app, now: F.now) == FocusStatus(isFocused: false))
    }
}
