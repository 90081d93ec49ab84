import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// The shape of the gateway's path through heraldd (docs/performance.md, "Where the time
/// goes"): herald-notify sends `update-content` on the connection it presents on, and its
/// bubble goes to the renderer as soon as the `notification-delivered` event is read. The
/// event must come first on that connection, ahead of the answer (which waits for the
/// journal entry) and never after it: otherwise every bubble would wait for the answer.
@Suite("The gateway's path through heraldd, end to end")
struct GatewayPathEndToEndTests {
    @Test("A presenter's own update-content: its notification-delivered comes before its answer, each time")
    func eventBeforeAnswer() throws {
        // As installed: the change log on (a state folder), the journal on.
        let herald = try HeraldProcess(.standalone)
        let presenter = try herald.connect()
        #expect(try presenter.call("subscribe-notifications", ["uid": .number(JSONNumber(Int(getuid())))], id: 0)[pointer: "/result"] != nil)
        let count = 20
        var eventFirst = 0
        for index in 1...count {
            let identifier = "fdo-path-\(index)"
            let params: JSONValue = [
                "app": "org.example.chat", "identifier": .string(identifier),
                "content": ["title": "Ann", "body": .string("message \(index)")],
            ]
            let request: JSONValue = ["jsonrpc": "2.0", "id": .number(JSONNumber(index)), "method": "update-content", "params": params]
            try presenter.send(request.compactText + "\n")
            let first = try #require(try presenter.readJSON())
            let second = try #require(try presenter.readJSON())
            let eventIsFirst =
                first[pointer: "/method"]?.stringValue == "notification-delivered"
                && first[pointer: "/params/notification/identifier"]?.stringValue == identifier
            let answerIsSecond = second[pointer: "/id"] == .number(JSONNumber(index)) && second[pointer: "/result"] != nil
            #expect(eventIsFirst && answerIsSecond, "line 1: \(first.compactText)\nline 2: \(second.compactText)")
            if eventIsFirst && answerIsSecond { eventFirst += 1 }
        }
        #expect(eventFirst == count)
    }

    /// The granted path (Protocol/README.md, "Standing grants"): the gateway's first
    /// notification of an app is decided as above and its answer carries the app's grant; one
    /// shown under it is answered alone — no event, the gateway showed it — and a change from
    /// another connection first revokes the grant, and waits for the gateway's answer.
    @Test("The gateway's own notification under a standing grant: answered alone; a change revokes the grant first")
    func grantedPathAndRevocation() throws {
        let herald = try HeraldProcess(.standalone)
        let gateway = try herald.connect()
        #expect(try gateway.call("subscribe-notifications", ["uid": .number(JSONNumber(Int(getuid())))], id: 0)[pointer: "/result"] != nil)
        func notify(_ id: Int, grant: JSONValue? = nil) throws {
            var params: JSONObject = [
                "app": "org.example.build", "identifier": .string("fdo-grant-\(id)"), "content": ["title": "Build", "body": .string("step \(id)")],
                "gateway": ["name": "freedesktop"],
            ]
            if let grant { params["grant"] = grant }
            let request: JSONValue = ["jsonrpc": "2.0", "id": .number(JSONNumber(id)), "method": "update-content", "params": .object(params)]
            try gateway.send(request.compactText + "\n")
        }
        try notify(1)
        let event = try #require(try gateway.readJSON())
        #expect(event[pointer: "/method"] == .string("notification-delivered"), "\(event.compactText)")
        let decided = try #require(try gateway.readJSON())
        let grantID = try #require(decided[pointer: "/result/grant/id"], "\(decided.compactText)")
        #expect(decided[pointer: "/result/grant/soundAlerts"] == .number(JSONNumber(0)), "the first started a burst: the next are cooled")

        try notify(2, grant: ["id": grantID, "sound": false])
        let granted = try #require(try gateway.readJSON())
        #expect(granted[pointer: "/id"] == .number(JSONNumber(2)), "the answer, no event before it: \(granted.compactText)")
        #expect(granted[pointer: "/result/grantHonoured"] == .bool(true))
        #expect(granted[pointer: "/result/grant/id"] != nil)

        // Another connection of the person's turns a Focus on: the gateway hears first.
        let person = try herald.connect()
        try person.send(#"{"jsonrpc":"2.0","id":9,"method":"set-focus","params":{"focus":{"name":"Work"}}}"# + "\n")
        let revoked = try #require(try gateway.readJSON())
        #expect(revoked[pointer: "/method"] == .string("grants-revoked"), "\(revoked.compactText)")
        let revocation = try #require(revoked[pointer: "/params/revocation"])
        try gateway.send(#"{"jsonrpc":"2.0","id":3,"method":"release-grants","params":{"revocation":"# + revocation.compactText + "}}\n")
        let released = try #require(try gateway.readJSON())
        #expect(released[pointer: "/result/awaited"]?.boolValue != nil, "\(released.compactText)")
        let focused = try #require(try person.readJSON())
        #expect(focused[pointer: "/result/focus/name"] == .string("Work"), "\(focused.compactText)")

        // Silenced now: decided through heraldd, and no grant while the Focus silences the app.
        try notify(4)
        let silenced = try #require(try gateway.readJSON())
        #expect(silenced[pointer: "/params/notification/delivery/presentation"] == .string("quiet"), "\(silenced.compactText)")
        let answer = try #require(try gateway.readJSON())
        #expect(answer[pointer: "/id"] == .number(JSONNumber(4)) && answer[pointer: "/result/grant"] == nil, "\(answer.compactText)")

        // Only the uid's own gateway may name a grant.
        let refused = try person.call("update-content", ["app": "org.example.build", "content": ["title": "x"], "grant": ["id": 1, "sound": true]])
        #expect(refused[pointer: "/error/code"] == .number(JSONNumber(1006)), "\(refused.compactText)")
        #expect(refused[pointer: "/error/data/pointer"] == .string("/grant"))
    }
}

