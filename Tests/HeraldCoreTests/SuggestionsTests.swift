import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

@Suite struct SuggestionsTests {
    typealias F = Fixtures
    static let day: TimeInterval = 24 * 3600

    @Test func rankedByDecayedFrequencyOfOutgoingOnly() throws {
        var state = F.state()
        let now = F.now + 14 * Self.day
        // Bo: two messages 14 days ago (0.25 each) = 0.5. Cy: one call today = 1.0.
        try state.donate(F.message("o1", direction: .outgoing, sender: nil, recipients: [F.bo]))
        try state.donate(F.message("o2", direction: .outgoing, sender: nil, recipients: [F.bo]))
        try state.donate(F.call("o3", direction: .outgoing, contacts: [F.cy]), now: now)
        // Incoming donations never suggest anyone.
        try state.donate(F.message("i1", sender: F.dee, recipients: [F.ann]))
        try state.donate(F.call("i2", contacts: [F.dee]))
        let people = try state.suggestPeople(.init(), caller: F.admin, now: now).result.people
        #expect(
            people == [
                PersonSuggestion(person: F.cy, count: 1, messageCount: 0, callCount: 1, lastDate: now, score: 1.0),
                PersonSuggestion(person: F.bo, count: 2, messageCount: 2, callCount: 0, lastDate: F.now, score: 0.5),
            ]
        )
        let limited = try state.suggestPeople(.init(limit: 1), caller: F.admin, now: now).result.people
        #expect(limited.map(\.person) == [F.cy])
    }

    @Test func filtersByUidAndAppAndForgetsDeleted() throws {
        var state = F.state()
        try state.donate(F.message("o1", direction: .outgoing, sender: nil, recipients: [F.bo]))
        try state.donate(F.message("o2", direction: .outgoing, sender: nil, recipients: [F.cy]), caller: F.otherUser)
        #expect(try state.suggestPeople(.init(uid: 1001), caller: F.admin, now: F.now).result.people.map(\.person) == [F.cy])
        #expect(try state.suggestPeople(.init(app: "org.unknown"), caller: F.admin, now: F.now).result.people.isEmpty)
        _ = try state.deleteInteractions(.init(app: F.app, all: true), caller: F.user, now: F.now)
        #expect(try state.suggestPeople(.init(), caller: F.admin, now: F.now).result.people.map(\.person) == [F.cy])
    }

    @Test func aPersonIsToldApartByTheFirstOfTheirKeys() {
        let people = [
            Person(handle: .init(value: "Ann@Example.ORG", type: .emailAddress), contactIdentifier: "c-1"),
            Person(handle: .init(value: "+1 (555) 010-0", type: .phoneNumber)),
            Person(handle: .init(value: ""), customIdentifier: "x", aliases: [.init(value: "bo@example.org")]),
            Person(handle: .init(value: "cy"), customIdentifier: "x"),
            Person(customIdentifier: "x"),
            Person(displayName: "Dee"),
        ]
        let same = people.map(PersonIdentity.firstKey(of:)) == people.map { PersonIdentity.keys(of: $0).first }
        #expect(same)
    }

    @Test func limitIsChecked() {
        let state = F.state()
        #expect(ruleError { try state.suggestPeople(.init(limit: 0), caller: F.admin, now: F.now) }?.path == ["limit"])
    }
}
