import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// `get-focus` with `subscribe`: the connection hears `active-focus-changed` at each change
/// of the uid's Focus in effect, one Focus straight to another and the same Focus set
/// again included.
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
        // Setting Sleep again (new settings, or a new until) is a change too.
        var told: [JSONValue] = []
        for _ in 0..<4 {
            if let line = try watcher.readJSON() { told.append(line) }
        }
        #expect(told.map { $0[pointer: "/method"] } == Array(repeating: .string("active-focus-changed"), count: 4), "\(told)")
        #expect(told.map { $0[pointer: "/params/focus"] } == [.string("Work"), .string("Sleep"), .string("Sleep"), .null], "\(told)")
        #expect(told.allSatisfy { $0[pointer: "/params/uid"] == .number(JSONNumber(Int(getuid()))) }, "\(told)")
        // Nothing more: the next line is the answer to a request sent now.
        try watcher.send(#"{"jsonrpc":"2.0","id":9,"method":"get-focus"}"#)
        #expect(try watcher.readJSON()?[pointer: "/id"] == .number(JSONNumber(9)))
    }
}
