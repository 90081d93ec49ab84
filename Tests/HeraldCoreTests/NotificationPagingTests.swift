import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 28: `list-notifications` answers one page at a time, bounded by the bytes the
/// server may write, and a cursor takes up where a page stopped.
@Suite struct NotificationPagingTests {
    typealias F = Fixtures

    /// Each notification counts as its body's length: pages of `maxBytes` hold that many bytes of bodies.
    private func budget(_ maxBytes: Int) -> PageBudget<HeraldNotification> {
        PageBudget(maxBytes: maxBytes) { $0.content.body?.utf8.count ?? 0 }
    }

    /// `count` notifications n0 … n(count-1), one second apart, each body `bytes` long.
    private func state(_ count: Int, bytes: Int = 100) throws -> HeraldState {
        var state = F.state()
        for index in 0..<count {
            let content = NotificationContent(title: "n\(index)", body: String(repeating: "x", count: bytes))
            _ = try state.updateContent(
                UpdateContentParams(app: F.app, identifier: "n\(index)", content: content), caller: F.user, now: F.now + Double(index))
        }
        return state
    }

    private func page(_ state: HeraldState, cursor: String? = nil, limit: Int? = nil, maxBytes: Int = 1000) throws -> ListNotificationsResult {
        try state.listNotifications(ListNotificationsParams(app: F.app, limit: limit, cursor: cursor), caller: F.user, budget: budget(maxBytes)).result
    }

    @Test func pagesHoldWhatFitsAndTheCursorsWalkTheWholeListOnce() throws {
        let state = try state(25)
        var seen: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let result = try page(state, cursor: cursor)
            #expect(result.notifications.count <= 10)
            seen += result.notifications.map(\.identifier)
            cursor = result.nextCursor
            pages += 1
        } while cursor != nil && pages < 10
        #expect(pages == 3)
        #expect(seen == (0..<25).reversed().map { "n\($0)" })
    }

    @Test func aNotificationThatComesBetweenPagesShiftsNothing() throws {
        var state = try state(12)
        let first = try page(state)
        #expect(first.notifications.map(\.identifier).first == "n11" && first.notifications.count == 10)
        _ = try state.updateContent(
            UpdateContentParams(app: F.app, identifier: "late", content: F.content()), caller: F.user, now: F.now + 100)
        let second = try page(state, cursor: first.nextCursor)
        #expect(second.notifications.map(\.identifier) == ["n1", "n0"] && second.nextCursor == nil)
    }

    @Test func limitBoundsAPageAndAPageAlwaysMovesOn() throws {
        let state = try state(5, bytes: 5000)
        // Each is larger than the page: one a page, so that every page moves on.
        let big = try page(state)
        #expect(big.notifications.map(\.identifier) == ["n4"] && big.nextCursor != nil)
        let limited = try page(state, limit: 2, maxBytes: .max)
        #expect(limited.notifications.map(\.identifier) == ["n4", "n3"])
        let rest = try page(state, cursor: limited.nextCursor, maxBytes: .max)
        #expect(rest.notifications.map(\.identifier) == ["n2", "n1", "n0"] && rest.nextCursor == nil)
        #expect(try page(state, limit: 0).notifications.isEmpty)
    }

    @Test func aCursorNotMadeByHeraldIsRefusedAtItsMember() throws {
        let state = try state(1)
        for bad in ["", "x", "1.2.3", "zz.1", "1." + String(repeating: "f", count: 17)] {
            let error = ruleError { try page(state, cursor: bad) }
            #expect(error?.path == ["cursor"], "\(bad)")
        }
    }
}

/// Issue 28: `get-focus` answers its Focuses a page at a time, and a Focus must fit a page.
@Suite struct FocusPagingTests {
    typealias F = Fixtures

    /// Each Focus counts as 100 bytes a allowed app.
    private func budget(_ maxBytes: Int) -> PageBudget<FocusConfiguration> {
        PageBudget(maxBytes: maxBytes) { $0.allowedApps.count * 100 }
    }

    @Test func getFocusPagesByNameAndACursorTakesUpAfterIt() throws {
        var state = F.state()
        for name in ["E", "A", "D", "B", "C"] {
            _ = try state.defineFocus(DefineFocusParams(focus: FocusConfiguration(name: name, allowedApps: ["a.b", "c.d"])), caller: F.user, now: F.now)
        }
        var names: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let read = try state.getFocus(GetFocusParams(cursor: cursor), caller: F.user, now: F.now, budget: budget(450)).result
            #expect(read.focuses.count <= 2)
            names += read.focuses.map(\.name)
            cursor = read.nextCursor
            pages += 1
        } while cursor != nil && pages < 10
        #expect(names == ["A", "B", "C", "D", "E"] && pages == 3)
        // define-focus answers the first page, with the cursor of the next.
        let defined = try state.defineFocus(DefineFocusParams(focus: FocusConfiguration(name: "F")), caller: F.user, now: F.now, budget: budget(450))
        #expect(defined.result.focuses.map(\.name) == ["A", "B"] && defined.result.nextCursor == "B")
    }

    @Test func aFocusLargerThanAPageIsRefusedAtItsMember() throws {
        var state = F.state()
        _ = try state.setFocus(SetFocusParams(focus: FocusUpdate(name: "Work", allowedApps: ["a.b", "c.d"])), caller: F.user, now: F.now, budget: budget(250))
        // A partial update that would grow it past the page is refused, and it stays as it was.
        let grown = ruleError {
            try state.setFocus(SetFocusParams(focus: FocusUpdate(name: "Work", allowedApps: ["a.b", "c.d", "e.f"])), caller: F.user, now: F.now, budget: budget(250))
        }
        #expect(grown?.path == ["focus"])
        let defined = ruleError {
            try state.defineFocus(DefineFocusParams(focus: FocusConfiguration(name: "Big", allowedApps: ["a.b", "c.d", "e.f"])), caller: F.user, now: F.now, budget: budget(250))
        }
        #expect(defined?.path == ["focus"])
        #expect(state.focusReadBack(uid: F.user.uid, now: F.now).focuses.map(\.allowedApps) == [["a.b", "c.d"]])
    }
}
