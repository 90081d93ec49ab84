import HeraldClient
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A donation of `identifier` as a request line's text, with the id the connection gave.
private func donation(_ identifier: String, id: Int) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"donate","params":{"app":"org.example.chat","interaction":{"identifier":"\#(identifier)","#
        + #""direction":"incoming","intent":{"type":"sendMessage","content":"Lunch?","conversationIdentifier":"c-ann","#
        + #""sender":{"handle":{"value":"ann@example.org","type":"emailAddress"}}}}}}"#
}

/// herald-bench's way to heraldd: lines it writes itself, answered by id, the results
/// left unread but where asked.
@Suite("HeraldPollConnection's rendered requests against heraldd")
struct HeraldPollConnectionRenderedTests {
    @Test("Rendered lines and batches are answered by id; only the asked and the errors are parsed; typed calls mix in")
    func renderedLines() throws {
        let heraldd = try HeraldProcess()
        _ = try heraldd.connect()
        let herald = try HeraldPollConnection(.init(socketPath: heraldd.socketPath), waitsInRead: true)
        var answers: [RenderedAnswer] = []
        herald.onRenderedAnswer = { answers.append($0) }

        let single = try herald.sendRendered { id, output in output += donation("m-1", id: id).utf8 }
        let batch = try herald.sendRendered(count: 3, decoding: true) { id, output in
            output += ("[" + (0..<3).map { donation("m-b\($0)", id: id + $0) }.joined(separator: ",") + "]").utf8
        }
        let unknown = try herald.sendRendered { id, output in output += #"{"jsonrpc":"2.0","id":\#(id),"method":"donat"}"#.utf8 }
        let halfWrong = try herald.sendRendered(count: 2) { id, output in
            output += "[\(donation("m-c0", id: id)),".utf8
            output += #"{"jsonrpc":"2.0","id":\#(id + 1),"method":"update-content","params":{"app":"org.example.chat","#.utf8
            output += #""interactionIdentifier":"never-donated","content":{"body":"x"}}}]"#.utf8
        }
        #expect(herald.answersWaiting == 4)
        // A typed call meanwhile: the rendered answers before its own are handled as they come.
        #expect(try herald.call(.getFocus()).active == nil)
        while herald.answersWaiting > 0 { try herald.handle(Int16(POLLIN | POLLOUT)) }

        #expect(answers.map(\.firstID) == [single, batch, unknown, halfWrong])
        #expect(batch == single + 1 && unknown == batch + 3)
        guard answers.count == 4 else { return }
        #expect(answers[0].error == nil && answers[0].parsed == nil, "heraldd's plain result is vouched for unparsed")
        #expect(answers[0].bytes > 40)
        #expect(answers[1].error == nil && answers[1].count == 3 && answers[1].parsed != nil, "decoding was asked for")
        #expect(answers[2].error?.code == -32601 && answers[2].parsed != nil)
        #expect(answers[3].count == 2 && answers[3].error?.code == 1001 && answers[3].error?.pointer == "/interactionIdentifier")
        // The donations took effect: the batch's second is there to update (else 1001).
        let updated = try herald.call(
            .updateContent(app: "org.example.chat", interactionIdentifier: "m-b1", content: NotificationContent(body: "Lunch?")))
        #expect(updated.content.body == "Lunch?")
    }

    @Test("Rendered lines still waiting when heraldd stops are answered with the connection's end")
    func renderedLost() throws {
        let heraldd = try HeraldProcess()
        _ = try heraldd.connect()
        let herald = try HeraldPollConnection(.init(socketPath: heraldd.socketPath), waitsInRead: true)
        var lost: [Int] = []
        herald.onRenderedAnswer = { answer in if answer.error?.kind == .connectionLost { lost.append(answer.firstID) } }
        // A request without an id is a notification, which heraldd never answers: the connection's end does.
        let first = try herald.sendRendered { _, output in output += #"{"jsonrpc":"2.0","method":"stats"}"#.utf8 }
        try herald.handle(Int16(POLLOUT))
        heraldd.stop()
        #expect(throws: HeraldError.self) {
            while true { try herald.handle(Int16(POLLIN)) }
        }
        #expect(lost == [first])
        #expect(herald.answersWaiting == 0)
    }
}
