import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 31, item 7: the person removes a notification and undoes it with heraldctl; the
/// presenter shows it again, and an action on it still reaches the app subscribed to its
/// responses.
@Suite("Undo, end to end")
struct UndoEndToEndTests {
    typealias R = ResponsesEndToEndTests

    @Test("heraldctl undoes a removal: the presenter shows it again, and its action's response reaches the app")
    func undoAndRespond() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let app = try herald.connect()
        let presenter = try herald.connect()
        let person = try herald.connect()
        _ = try app.call("set-notification-categories", ["app": .string(R.chat), "categories": R.categories])
        #expect(try app.call("subscribe-responses", ["app": .string(R.chat)])[pointer: "/result/pending"] == 0)
        _ = try presenter.call("subscribe-notifications", [:])
        try R.post(person, "m-1", category: "message")
        let first = try #require(try R.next("notification-delivered", from: presenter))
        let receivedAt = first[pointer: "/notification/receivedAt"]

        let removed = try person.call("remove-notifications", ["app": .string(R.chat), "identifiers": ["m-1"]])
        #expect(removed[pointer: "/result/removed"] == 1, "\(removed.compactText)")
        #expect(try R.next("notifications-removed", from: presenter)?[pointer: "/identifiers"] == ["m-1"])
        let listed = try Heraldctl.run(["notifications", "list", "--removed", "--socket", herald.socketPath])
        #expect(listed.stdout.contains("m-1 org.example.chat delivered") && listed.stdout.contains("restorable until"), "\(listed)")
        let removedList = try person.call("list-removed-notifications", [:])
        #expect(removedList[pointer: "/result/notifications/0/notification/identifier"] == "m-1", "\(removedList.compactText)")
        #expect(removedList[pointer: "/result/more"] == false)

        let undone = try Heraldctl.run(["notifications", "undo", "--socket", herald.socketPath])
        #expect(undone.stdout == "Restored 1 notification.\n", "\(undone)")
        let back = try #require(try R.next("notification-delivered", from: presenter))
        #expect(back[pointer: "/notification/identifier"] == "m-1")
        #expect(back[pointer: "/notification/delivery/reasons/0/code"] == "restored", "\(back.compactText)")
        #expect(back[pointer: "/notification/receivedAt"] == receivedAt, "in its place")
        #expect(back[pointer: "/notification/actions/1/identifier"] == "like", "its actions again")

        let answer = try R.respond(person, "m-1", "like")
        #expect(answer[pointer: "/result/response"] == "delivered", "\(answer.compactText)")
        let heard = try #require(try R.next("notification-response", from: app))
        #expect(heard[pointer: "/identifier"] == "m-1" && heard[pointer: "/actionIdentifier"] == "like")

        let nothing = try Heraldctl.run(["notifications", "undo", "--socket", herald.socketPath])
        #expect(nothing.stdout.hasPrefix("Nothing to restore"), "\(nothing)")
        let bad = try person.call("restore-notifications", ["app": .string(R.chat)])
        R.expectError(bad, -32602, "/identifiers", "an app without identifiers")
    }

    @Test("With --undo-window 0 nothing is kept; heraldctl restore names what to bring back")
    func windowOff() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none", "--undo-window", "0"])
        let person = try herald.connect()
        try R.post(person, "m-1", category: nil)
        _ = try person.call("remove-notifications", ["app": .string(R.chat), "identifiers": ["m-1"]])
        let restored = try Heraldctl.run(["notifications", "restore", R.chat, "m-1", "--socket", herald.socketPath])
        #expect(restored.stdout.hasPrefix("Nothing to restore"), "\(restored)")
        #expect(try person.call("list-removed-notifications", [:])[pointer: "/result/notifications"] == [])
    }
}
