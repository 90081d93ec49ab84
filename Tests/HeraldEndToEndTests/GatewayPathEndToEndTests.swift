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
}
