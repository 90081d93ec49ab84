import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// `get-focus` with `subscribe`: the connection hears `active-focus-changed` at each change
/// of the uid's Focus in effect, one Focus straight to another and the same Focus set
/// again included; and `focus-defined` at each definition made, changed or deleted.
struct FocusWatchEndToEndTests {
    @Test func watcherHearsEachChangeOfTheFocusInEffect() throws {
        let herald = try HeraldProcess(.standalone)
        let watcher = try herald.connect()
        let answer = try watcher.call("get-focus", json(#"{"subscribe":true}"#))
        #expect(answer[pointer: "/result/active"] == .null, "\(answer)")

        let person = try herald.connect()
        for params in [#"{"focus":{"name":"Work"}}"#, #"{"focus":{"name":"Sleep"}}"#, #"{"focus":{"name":"Sleep"}}"#, #"{"focus":null}"#] {
            #expect(try person.call("set-focus", json(params))[pointer: "/result"] != nil)
        }
        // Setting Sleep again (new settings, or a new until) is a change too. Each set-focus
        // with focus also tells focus-defined, first.
        var told: [JSONValue] = []
        for _ in 0..<7 {
            if let line = try watcher.readJSON() { told.append(line) }
        }
        #expect(
            told.map { $0[pointer: "/method"]?.stringValue ?? "" }
                == ["focus-defined", "active-focus-changed", "focus-defined", "active-focus-changed", "focus-defined", "active-focus-changed", "active-focus-changed"],
            "\(told)")
        let changes = told.filter { $0[pointer: "/method"] == .string("active-focus-changed") }
        #expect(changes.map { $0[pointer: "/params/focus"] } == [.string("Work"), .string("Sleep"), .string("Sleep"), .null], "\(told)")
        let defined = told.filter { $0[pointer: "/method"] == .string("focus-defined") }
        #expect(defined.map { $0[pointer: "/params/name"] } == [.string("Work"), .string("Sleep"), .string("Sleep")], "\(told)")
        #expect(defined.map { $0[pointer: "/params/focus/name"] } == [.string("Work"), .string("Sleep"), .string("Sleep")], "\(told)")
        #expect(told.allSatisfy { $0[pointer: "/params/uid"] == .number(JSONNumber(Int(getuid()))) }, "\(told)")
        // Nothing more: the next line is the answer to a request sent now.
        try watcher.send(#"{"jsonrpc":"2.0","id":9,"method":"get-focus"}"#)
        #expect(try watcher.readJSON()?[pointer: "/id"] == .number(JSONNumber(9)))
    }

    @Test func watcherHearsEachDefinitionMadeChangedOrDeleted() throws {
        let herald = try HeraldProcess(.standalone)
        let watcher = try herald.connect()
        #expect(try watcher.call("get-focus", json(#"{"subscribe":true}"#))[pointer: "/result"] != nil)
        let person = try herald.connect()
        // A window hours away, whenever the test runs: a fixed one (20:00-21:00) was in
        // effect for a run at 20:00 UTC, and its active-focus-changed came between.
        let start = NotificationListEndToEndTests.clockTime(in: 2 * 3600)
        let end = NotificationListEndToEndTests.clockTime(in: 3 * 3600)
        let define = #"{"focus":{"name":"Evening","allowedApps":["org.example.chat"],"schedules":[{"start":"\#(start)","end":"\#(end)"}]}}"#
        #expect(try person.call("define-focus", json(define))[pointer: "/result"] != nil)
        #expect(try person.call("delete-focus", json(#"{"name":"Evening"}"#))[pointer: "/result"] != nil)
        // A refused definition tells nothing.
        #expect(try person.call("delete-focus", json(#"{"name":"Evening"}"#))[pointer: "/error/code"] == .number(JSONNumber(-32602)))

        let made = try watcher.readJSON()
        #expect(made?[pointer: "/method"] == .string("focus-defined"), "\(String(describing: made))")
        #expect(made?[pointer: "/params/name"] == .string("Evening"))
        #expect(made?[pointer: "/params/focus/allowedApps/0"] == .string("org.example.chat"), "\(String(describing: made))")
        #expect(made?[pointer: "/params/focus/schedules/0/start"] == .string(start), "\(String(describing: made))")
        #expect(made?[pointer: "/params/focus/until"] == nil)
        let deleted = try watcher.readJSON()
        #expect(deleted?[pointer: "/method"] == .string("focus-defined"), "\(String(describing: deleted))")
        #expect(deleted?[pointer: "/params/name"] == .string("Evening"))
        #expect(deleted?[pointer: "/params/focus"] == .null, "\(String(describing: deleted))")
        try watcher.send(#"{"jsonrpc":"2.0","id":9,"method":"get-focus"}"#)
        #expect(try watcher.readJSON()?[pointer: "/id"] == .number(JSONNumber(9)))
    }
}
