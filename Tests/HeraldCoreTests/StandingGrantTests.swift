import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// The gateway's standing grants: heraldd's own rules run ahead on an app's plain
/// notification, revoked before a change, and each notification shown under one still
/// decided as it comes.
@Suite struct StandingGrantTests {
    typealias F = Fixtures
    static let gateway: UInt64 = 7

    private func notify(_ state: inout HeraldState, at seconds: Double, grant: GrantUse? = nil) throws -> UpdateContentResult {
        let params = UpdateContentParams(app: F.app, content: F.content(), gateway: GatewayOrigin(name: .freedesktop), grant: grant)
        return try state.updateContent(params, caller: F.user, now: F.now + seconds).result
    }

    @Test func aGrantPromisesWhatTheRulesDecideAndEndsBeforeTheBurstCools() throws {
        var state = F.state()
        // No burst yet: the first alert sounds, and the grant lasts less than the window.
        let freshMade = state.renewGrant(uid: F.user.uid, app: F.app, holder: Self.gateway, now: F.now)
        let fresh = try #require(freshMade)
        #expect(fresh.soundAlerts == 1 && fresh.alerts == StandingGrants.maximumAlerts)
        #expect(fresh.seconds == 59)
        let first = try notify(&state, at: 1, grant: GrantUse(id: fresh.id, sound: true))
        #expect(first.grantHonoured == true && first.delivery.sound)
        #expect(first.delivery.reasons.last?.message.hasSuffix("Decided by the gateway's standing grant \(fresh.id).") == true)
        // In the burst: every next one is cooled, until the window after the last arrival.
        let cooledMade = state.renewGrant(uid: F.user.uid, app: F.app, holder: Self.gateway, now: F.now + 2)
        let cooled = try #require(cooledMade)
        #expect(cooled.soundAlerts == 0 && cooled.seconds == 58)
        let second = try notify(&state, at: 3, grant: GrantUse(id: cooled.id, sound: false))
        #expect(second.grantHonoured == true && !second.delivery.sound && second.delivery.reasons.last?.code == .cooledDown)
        // Shown with sound where the rules cool it: not honoured, and the list says what was decided.
        let wrong = try notify(&state, at: 4, grant: GrantUse(id: cooled.id, sound: true))
        #expect(wrong.grantHonoured == false)
        #expect(wrong.delivery.reasons.allSatisfy { !$0.message.contains("standing grant") })
    }

    @Test func noGrantWhileAFocusSilencesTheAppOrTheSummaryHoldsIt() throws {
        var state = F.state()
        _ = try state.setFocus(SetFocusParams(focus: FocusUpdate(name: "Work")), caller: F.user, now: F.now)
        #expect(state.renewGrant(uid: F.user.uid, app: F.app, holder: Self.gateway, now: F.now) == nil)
        _ = try state.setFocus(SetFocusParams(focus: nil), caller: F.user, now: F.now)
        #expect(state.renewGrant(uid: F.user.uid, app: F.app, holder: Self.gateway, now: F.now) != nil)
        _ = try state.setSummary(SetSummaryParams(apps: [F.app], times: ["18:00"]), caller: F.user, now: F.now)
        #expect(state.renewGrant(uid: F.user.uid, app: F.app, holder: Self.gateway, now: F.now) == nil)
    }

    @Test func aRevocationDropsTheGrantsAndIssuesNoneUntilTheChangeIsApplied() throws {
        var state = F.state()
        let grantMade = state.renewGrant(uid: F.user.uid, app: F.app, holder: Self.gateway, now: F.now)
        let grant = try #require(grantMade)
        let revocation = state.revokeGrants(uid: F.user.uid)
        #expect(revocation.told == [GrantRevocation.Told(uid: F.user.uid, connection: Self.gateway, number: 1)])
        #expect(state.grantCount(uid: F.user.uid) == 0)
        #expect(state.renewGrant(uid: F.user.uid, app: F.app, holder: Self.gateway, now: F.now) == nil, "none while the change waits")
        // Shown under the revoked grant before the change: decided as it was shown.
        let shown = try notify(&state, at: 1, grant: GrantUse(id: grant.id, sound: true))
        #expect(shown.grantHonoured == true)
        #expect(shown.delivery.reasons.last?.message.contains("revoked before it arrived") == true)
        state.endGrantRevocation(revocation)
        #expect(state.renewGrant(uid: F.user.uid, app: F.app, holder: Self.gateway, now: F.now + 2) != nil)
        state.dropGrantHolder(connection: Self.gateway)
        #expect(!state.hasGrantHolder(uid: F.user.uid))
    }

    @Test func aGatewayThatClosesDuringARevocationIsForgottenWhenItEnds() throws {
        var state = F.state()
        #expect(state.renewGrant(uid: F.user.uid, app: F.app, holder: Self.gateway, now: F.now) != nil)
        let revocation = state.revokeGrants(uid: F.user.uid)
        state.dropGrantHolder(connection: Self.gateway)
        #expect(state.hasGrantHolder(uid: F.user.uid), "kept while the change waits")
        state.endGrantRevocation(revocation)
        // Otherwise every later change of the uid would leave the event loop to revoke nothing.
        #expect(!state.hasGrantHolder(uid: F.user.uid))
    }

    @Test func aScheduledChangeEndsTheGrantASecondBefore() throws {
        var state = F.state()
        _ = try state.setCooldown(SetCooldownParams(seconds: 0), caller: F.user)
        _ = try state.setSummary(SetSummaryParams(apps: ["org.example.news"], times: ["18:00"]), caller: F.user, now: F.now)
        _ = try state.updateContent(UpdateContentParams(app: "org.example.news", content: F.content()), caller: F.user, now: F.now)
        let due = try #require(state.nextDue)
        let grantMade = state.renewGrant(uid: F.user.uid, app: F.app, holder: Self.gateway, now: F.now)
        let grant = try #require(grantMade)
        #expect(grant.soundAlerts == grant.alerts, "the cooldown is off: every one sounds")
        #expect(grant.seconds == min(3600, due.timeIntervalSince(F.now) - 1))
    }
}
