import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 31, "what you missed": when a Focus ends, one digest of what it silenced.
@Suite struct FocusDigestTests {
    typealias F = Fixtures

    /// A message of `conversation` from `sender`, donated and made a notification at `now`.
    private func message(
        _ identifier: String, conversation: String = "c1", sender: Person = F.ann, recipients: [Person]? = nil, groupName: String? = nil,
        app: String = F.app, caller: Caller = F.user, at now: Date = F.now + 10, state: inout HeraldState
    ) throws {
        try state.donate(
            F.message(identifier, sender: sender, recipients: recipients, conversation: conversation, groupName: groupName), app: app, caller: caller,
            now: now)
        _ = try state.updateContent(
            UpdateContentParams(app: app, identifier: identifier, interactionIdentifier: identifier, content: F.content()), caller: caller, now: now)
    }

    /// A notification of no conversation from `app`.
    private func plain(_ identifier: String, app: String, caller: Caller = F.user, at now: Date = F.now + 10, state: inout HeraldState) throws {
        _ = try state.updateContent(UpdateContentParams(app: app, identifier: identifier, content: F.content()), caller: caller, now: now)
    }

    private func turnOn(_ name: String = "Work", caller: Caller = F.user, at now: Date = F.now, state: inout HeraldState) throws {
        _ = try state.setFocus(SetFocusParams(focus: FocusConfiguration(name: name)), caller: caller, now: now)
    }

    private func turnOff(caller: Caller = F.user, at now: Date, state: inout HeraldState) throws {
        _ = try state.setFocus(SetFocusParams(focus: nil as FocusUpdate?), caller: caller, now: now)
    }

    @Test func aFocusThatEndsSendsOneDigestOfConversationsThenAppsByCount() throws {
        var state = F.state()
        try turnOn(state: &state)
        try message("m1", conversation: "team", sender: F.ann, recipients: [F.cy], groupName: "Team", at: F.now + 1, state: &state)
        try message("m2", conversation: "team", sender: F.bo, recipients: [F.cy], groupName: "Team", at: F.now + 2, state: &state)
        try message("m3", conversation: "bo", sender: F.bo, at: F.now + 3, state: &state)
        try plain("p1", app: "org.example.mail", at: F.now + 4, state: &state)
        try plain("p2", app: "org.example.mail", at: F.now + 5, state: &state)
        try plain("p3", app: "org.example.mail", at: F.now + 6, state: &state)
        try plain("p4", app: "org.example.news", at: F.now + 7, state: &state)
        #expect(state.takeFocusDigests().isEmpty, "nothing until the Focus ends")

        try turnOff(at: F.now + 100, state: &state)
        let digests = state.takeFocusDigests()
        let digest = try #require(digests.first)
        #expect(digests.count == 1)
        #expect(digest.uid == 1000 && digest.focus == "Work" && digest.total == 7 && digest.unlisted == 0)
        #expect(digest.startedAt == F.now && digest.endedAt == F.now + 100 && digest.endedBy == .turnedOff)
        #expect(digest.entries.map { $0.conversationIdentifier ?? $0.app } == ["team", "bo", "org.example.mail", "org.example.news"])
        #expect(digest.entries.map(\.count) == [2, 1, 3, 1], "conversations first, each group by count")
        #expect(digest.entries[0].conversationName == "Team" && digest.entries[0].senders == ["Ann", "Bo"])
        #expect(digest.entries[1].conversationName == nil && digest.entries[1].senders == ["Bo"])
        #expect(digest.entries[2].senders == nil && digest.entries[2].lastAt == F.now + 6)
        #expect(state.takeFocusDigests().isEmpty, "taken once")

        let read = try state.getFocusDigest(UIDParams(), caller: F.user, now: F.now + 200).result
        #expect(read.digest == digest && read.running == nil)
    }

    @Test func onlyWhatTheFocusDeliveredQuietlyCounts() throws {
        var state = F.state()
        _ = try state.setSummary(SetSummaryParams(apps: ["org.example.news"], times: ["18:00"]), caller: F.user, now: F.now)
        _ = try state.setFocus(SetFocusParams(focus: FocusConfiguration(name: "Work", allowedApps: ["org.example.pager"])), caller: F.user, now: F.now)
        try plain("allowed", app: "org.example.pager", state: &state)
        try plain("held", app: "org.example.news", state: &state)
        _ = try state.updateContent(
            UpdateContentParams(app: "org.example.mail", identifier: "urgent", content: F.content(.timeSensitive)), caller: F.user, now: F.now + 10)
        try plain("silenced", app: "org.example.mail", state: &state)
        try turnOff(at: F.now + 60, state: &state)
        let digest = try #require(state.takeFocusDigests().first)
        #expect(digest.total == 1 && digest.entries.map(\.app) == ["org.example.mail"], "the allowed, held and time-sensitive ones are not missed")
    }

    @Test func aFocusThatSilencedNothingSendsNoneAndKeepsTheLast() throws {
        var state = F.state()
        try turnOn(state: &state)
        try plain("p1", app: "org.example.mail", state: &state)
        try turnOff(at: F.now + 60, state: &state)
        let first = try #require(state.takeFocusDigests().first)
        try turnOn("Sleep", at: F.now + 100, state: &state)
        try turnOff(at: F.now + 200, state: &state)
        #expect(state.takeFocusDigests().isEmpty)
        #expect(try state.getFocusDigest(UIDParams(), caller: F.user, now: F.now + 300).result.digest == first)
    }

    @Test func whileOnGetFocusDigestShowsTheRunningCounts() throws {
        var state = F.state()
        #expect(try state.getFocusDigest(UIDParams(), caller: F.user, now: F.now).result == GetFocusDigestResult(uid: 1000, digest: nil, running: nil))
        try turnOn(state: &state)
        try plain("p1", app: "org.example.mail", state: &state)
        let running = try #require(try state.getFocusDigest(UIDParams(), caller: F.user, now: F.now + 20).result.running)
        #expect(running.focus == "Work" && running.total == 1 && running.startedAt == F.now && running.endedAt == nil && running.endedBy == nil)
    }

    @Test func anotherFocusOrOffAndOnAgainReplacesItAndDeletingEndsIt() throws {
        var state = F.state()
        try turnOn(state: &state)
        try plain("p1", app: "org.example.mail", state: &state)
        try turnOn("Sleep", at: F.now + 50, state: &state)
        let replaced = try #require(state.takeFocusDigests().first)
        #expect(replaced.focus == "Work" && replaced.endedBy == .replaced && replaced.endedAt == F.now + 50)

        try plain("p2", app: "org.example.mail", at: F.now + 60, state: &state)
        try turnOff(at: F.now + 65, state: &state)
        let off = try #require(state.takeFocusDigests().first)
        #expect(off.focus == "Sleep" && off.endedBy == .turnedOff && off.total == 1)
        _ = try state.setFocus(SetFocusParams(focus: nil as FocusUpdate?, name: "Sleep"), caller: F.user, now: F.now + 70)
        #expect(state.takeFocusDigests().isEmpty, "off and on again is a new activation, which silenced nothing yet")

        try plain("p3", app: "org.example.mail", at: F.now + 80, state: &state)
        _ = try state.deleteFocus(DeleteFocusParams(name: "Sleep"), caller: F.user, now: F.now + 90)
        let deleted = try #require(state.takeFocusDigests().first)
        #expect(deleted.endedBy == .deleted && deleted.total == 1 && deleted.startedAt == F.now + 70)
    }

    @Test func aScheduleThatEndsOnTheClockMakesTheDigest() throws {
        var state = F.state()
        let day = Date(timeIntervalSince1970: 1_800_000_000 - 1_800_000_000.truncatingRemainder(dividingBy: 86_400))
        _ = try state.defineFocus(
            DefineFocusParams(focus: FocusConfiguration(name: "Work", schedules: [FocusSchedule(start: "09:00", end: "17:00")])), caller: F.user,
            now: day + 3600)
        let started = state.advanceFocuses(now: day + 9 * 3600)
        #expect(started)
        _ = state.takeFocusChanges()
        try plain("p1", app: "org.example.mail", at: day + 10 * 3600, state: &state)
        try message("m1", at: day + 11 * 3600, state: &state)
        let early = state.advanceFocuses(now: day + 16 * 3600)
        #expect(!early && state.takeFocusDigests().isEmpty, "not before the window ends")
        let ended = state.advanceFocuses(now: day + 17 * 3600 + 1)
        #expect(ended)
        let digest = try #require(state.takeFocusDigests().first)
        #expect(digest.endedBy == .ended && digest.startedAt == day + 9 * 3600 && digest.endedAt == day + 17 * 3600 + 1 && digest.total == 2)
        #expect(digest.entries.first?.conversationIdentifier == "c1", "a conversation before an app of as many")
    }

    @Test func eachUIDHasItsOwnDigestAndOnlyItsOwn() throws {
        var state = F.state()
        try turnOn(state: &state)
        try turnOn("Sleep", caller: F.otherUser, state: &state)
        try plain("mine", app: "org.example.mail", state: &state)
        try plain("theirs1", app: "org.example.news", caller: F.otherUser, state: &state)
        try plain("theirs2", app: "org.example.news", caller: F.otherUser, state: &state)
        try turnOff(at: F.now + 60, state: &state)
        let digests = state.takeFocusDigests()
        #expect(digests.count == 1 && digests.first?.uid == 1000 && digests.first?.total == 1, "the other uid's Focus is still on")
        let theirs = try #require(try state.getFocusDigest(UIDParams(uid: 1001), caller: F.admin, now: F.now + 60).result.running)
        #expect(theirs.uid == 1001 && theirs.total == 2 && theirs.entries.map(\.app) == ["org.example.news"])
        let refused = ruleError { try state.getFocusDigest(UIDParams(uid: 1001), caller: F.user, now: F.now + 60) }
        #expect(refused?.code == .permissionDenied && refused?.path == ["uid"])
    }

    @Test func aDigestListsAtMostItsCapAndCountsTheRestAsUnlisted() throws {
        var state = F.state()
        try turnOn(state: &state)
        let apps = FocusDigests.maxEntries + 8
        for index in 0..<apps {
            try plain("p\(index)", app: "org.example.app\(index)", at: F.now + Double(index + 1), state: &state)
        }
        try plain("again", app: "org.example.app0", at: F.now + 100, state: &state)
        let many = (0..<(FocusDigests.maxSenders + 2)).map { Person(handle: PersonHandle(value: "p\($0)"), displayName: "P\($0)") }
        for (index, sender) in many.enumerated() {
            try message("m\(index)", conversation: "crowd", sender: sender, recipients: [F.cy], at: F.now + 200, state: &state)
        }
        try turnOff(at: F.now + 300, state: &state)
        let digest = try #require(state.takeFocusDigests().first)
        #expect(digest.entries.count == FocusDigests.maxEntries)
        #expect(digest.total == apps + 1 + many.count)
        #expect(digest.unlisted == apps + 1 + many.count - digest.entries.reduce(0) { $0 + $1.count })
        #expect(digest.entries.first { $0.app == "org.example.app0" }?.count == 2, "a listed app keeps counting")
        #expect(!digest.entries.contains { $0.conversationIdentifier == "crowd" }, "past the cap: unlisted")
    }

    @Test func aConversationNamesAtMostFiveSendersEachBounded() throws {
        var state = F.state()
        try turnOn(state: &state)
        let long = String(repeating: "x", count: 300)
        let senders = [Person(handle: PersonHandle(value: "l"), displayName: long)]
            + (0..<7).map { Person(handle: PersonHandle(value: "p\($0)"), displayName: "P\($0)") }
        for (index, sender) in senders.enumerated() {
            try message("m\(index)", conversation: "crowd", sender: sender, recipients: [F.cy], state: &state)
        }
        try turnOff(at: F.now + 60, state: &state)
        let entry = try #require(state.takeFocusDigests().first?.entries.first)
        #expect(entry.count == senders.count && entry.senders?.count == FocusDigests.maxSenders)
        #expect(entry.senders?.first?.utf8.count == FocusDigests.maxNameBytes && entry.senders?.first?.hasSuffix("…") == true)
    }

    /// Issue 49, finding 7: a name of one letter and 8,000 combining marks is one character;
    /// 64 characters of them made a 5.6 MB `focus-digest`. The bound is in bytes.
    @Test func aNameOfCombiningMarksIsBoundedInBytesOnACharactersEdge() throws {
        var state = F.state()
        try turnOn(state: &state)
        let heavy = String(repeating: "a" + String(repeating: "\u{301}", count: 8_000), count: 64)
        let twoByTwo = String(repeating: "é", count: 300)  // é precomposed: two bytes a character
        let senders = [heavy, twoByTwo, "Ann"].enumerated().map { Person(handle: PersonHandle(value: "h\($0.offset)"), displayName: $0.element) }
        for (index, sender) in senders.enumerated() {
            try message("m\(index)", conversation: "crowd", sender: sender, recipients: [F.cy], groupName: heavy, state: &state)
        }
        let running = try #require(state.getFocusDigest(UIDParams(), caller: F.user, now: F.now + 30).result.running)
        try turnOff(at: F.now + 60, state: &state)
        let digest = try #require(state.takeFocusDigests().first)
        for read in [running, digest] {
            let entry = try #require(read.entries.first)
            let names = (entry.senders ?? []) + [entry.conversationName].compactMap { $0 }
            #expect(names.allSatisfy { $0.utf8.count <= FocusDigests.maxNameBytes })
            #expect(entry.senders == ["…", String(repeating: "é", count: (FocusDigests.maxNameBytes - 3) / 2) + "…", "Ann"])
            #expect(entry.conversationName == "…", "one character heavier than the bound leaves the ellipsis alone")
        }
    }

    /// What a snapshot brings back is cut as counting cuts it: a snapshot of a build that
    /// bounded names in characters must not restore a digest of megabytes.
    @Test func namesRestoredFromASnapshotAreBoundedInBytes() throws {
        let heavy = "b" + String(repeating: "\u{301}", count: 8_000)
        let entry = FocusDigestEntry(
            app: F.app, conversationIdentifier: "team", conversationName: heavy, senders: [heavy, "Bo"], count: 2, lastAt: F.now)
        let digest = FocusDigest(uid: 1000, focus: "Work", startedAt: F.now, endedAt: F.now + 60, endedBy: .turnedOff, total: 2, entries: [entry], unlisted: 0)
        var running = digest
        running.endedAt = nil
        running.endedBy = nil
        var state = F.state()
        let restored = state.restoreFocusDigests(running: [(activation: UInt64(7), digest: running)], last: [digest])
        #expect(restored)
        let read = try state.getFocusDigest(UIDParams(), caller: F.user, now: F.now + 80).result
        for kept in [read.digest, read.running] {
            let first = try #require(kept?.entries.first)
            #expect(first.conversationName == "…" && first.senders == ["…", "Bo"])
        }
    }

    @Test func aConversationOfAVeryLongIdentifierCountsAsItsApp() throws {
        var state = F.state()
        try turnOn(state: &state)
        try message("m1", conversation: String(repeating: "c", count: FocusDigests.maxConversationIdentifierBytes + 1), state: &state)
        try turnOff(at: F.now + 60, state: &state)
        let entry = try #require(state.takeFocusDigests().first?.entries.first)
        #expect(entry.app == F.app && entry.conversationIdentifier == nil && entry.count == 1 && entry.senders == nil)
    }

    @Test func aSnoozedNotificationThatComesBackQuietCounts() throws {
        var state = F.state()
        try plain("n1", app: F.app, at: F.now, state: &state)
        _ = try state.snoozeNotification(SnoozeNotificationParams(app: F.app, identifier: "n1", seconds: 60), caller: F.user, now: F.now)
        try turnOn(at: F.now + 30, state: &state)
        #expect(state.returnDueSnoozed(now: F.now + 61).count == 1)
        try turnOff(at: F.now + 90, state: &state)
        #expect(state.takeFocusDigests().first?.total == 1)
    }

    @Test func theRunningCountsAndTheLastDigestSurviveARestore() throws {
        var state = F.state()
        try turnOn(state: &state)
        try message("m1", conversation: "team", sender: F.ann, recipients: [F.cy], groupName: "Team", state: &state)
        try turnOff(at: F.now + 50, state: &state)
        _ = state.takeFocusDigests()
        try turnOn("Sleep", at: F.now + 60, state: &state)
        try plain("p1", app: "org.example.mail", at: F.now + 70, state: &state)

        var restored = F.state()
        let focuses = state.storedFocuses
        let restoredFocuses = restored.restoreFocuses(activations: focuses.activations, uids: focuses.uids)
        let stored = state.storedFocusDigests
        let restoredDigests = restored.restoreFocusDigests(running: stored.running, last: stored.last)
        #expect(restoredFocuses && restoredDigests)
        let readBack = try restored.getFocusDigest(UIDParams(), caller: F.user, now: F.now + 80).result
        let original = try state.getFocusDigest(UIDParams(), caller: F.user, now: F.now + 80).result
        #expect(readBack == original && original.digest != nil && original.running?.total == 1)
        try plain("p2", app: "org.example.mail", at: F.now + 90, state: &restored)
        try turnOff(at: F.now + 100, state: &restored)
        let digest = try #require(restored.takeFocusDigests().first)
        #expect(digest.focus == "Sleep" && digest.total == 2 && digest.startedAt == F.now + 60, "the counts before the restart count")

        var broken = stored.last
        broken[0].total += 1
        #expect(!F.state().restoreFocusDigestsChecked(running: [], last: broken), "counts that do not add up are refused")
    }
}

extension HeraldState {
    fileprivate func restoreFocusDigestsChecked(running: [(activation: UInt64, digest: FocusDigest)], last: [FocusDigest]) -> Bool {
        var copy = self
        return copy.restoreFocusDigests(running: running, last: last)
    }
}
