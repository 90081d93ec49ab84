import Foundation
import HeraldClient
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private let app = "org.example.chat"
private let ann = Person(handle: PersonHandle(value: "ann@example.org", type: .emailAddress), displayName: "Ann Lee")

/// heraldd once its socket listens: systemd-socket-activate makes the file before it listens,
/// and the poll connection, connecting once, would meet that moment.
private func listeningHeraldd() throws -> HeraldProcess {
    let heraldd = try HeraldProcess()
    _ = try heraldd.connect()
    return heraldd
}

/// The poll flavour against the real heraldd: the requests the async client sends, from a
/// loop that polls its descriptor.
@Suite("HeraldPollConnection against heraldd")
struct HeraldPollConnectionTests {
    @Test("Typed requests wait for their result; an error has its code and pointer, and the connection goes on")
    func typedCalls() throws {
        let heraldd = try listeningHeraldd()
        let herald = try HeraldPollConnection(.init(socketPath: heraldd.socketPath))
        #expect(fcntl(herald.fileDescriptor, F_GETFD) & FD_CLOEXEC != 0, "a program the app starts must not inherit the connection")
        let interaction = Interaction(
            identifier: "m-17", direction: .incoming,
            intent: .sendMessageIntent(SendMessageIntent(sender: ann, content: "Lunch?", conversationIdentifier: "c-ann"))
        )
        #expect(try herald.call(.donate(app: app, interaction: interaction)).identifier == "m-17")
        let unknown = #expect(throws: HeraldError.self) {
            _ = try herald.call(.updateContent(app: app, interactionIdentifier: "never-donated", content: NotificationContent(body: "x")))
        }
        #expect(unknown?.code == 1001)
        #expect(unknown?.pointer == "/interactionIdentifier")
        let updated = try herald.call(
            .updateContent(app: app, interactionIdentifier: "m-17", content: NotificationContent(title: "New message", body: "Lunch?"))
        )
        #expect(updated.content.title == "Ann Lee")
        #expect(herald.answersWaiting == 0)
    }

    @Test("One poll loop on two connections: answers by id, and the subscription's event as a HeraldEvent")
    func pollLoop() throws {
        let heraldd = try listeningHeraldd()
        let watcher = try HeraldPollConnection(.init(socketPath: heraldd.socketPath))
        let person = try HeraldPollConnection(.init(socketPath: heraldd.socketPath))
        var focusOn: String?
        var subscribed: FocusReadBack?
        var changed = false
        watcher.onEvent = { event in
            if case .activeFocusChanged(let change) = event, let focus = change.focus { focusOn = focus }
        }
        try watcher.send(.getFocus(subscribe: true)) { answer in
            subscribed = try answer.get()
            try person.send(.setFocus(focus: FocusConfiguration(name: "Work", allowedPeople: [ann]))) { _ = try $0.get(); changed = true }
        }
        while focusOn == nil {
            var descriptors = [
                pollfd(fd: watcher.fileDescriptor, events: watcher.pollEvents, revents: 0),
                pollfd(fd: person.fileDescriptor, events: person.pollEvents, revents: 0),
            ]
            // A bound against a hang, not a timing.
            guard poll(&descriptors, 2, 30_000) > 0 else { break }
            try watcher.handle(descriptors[0].revents)
            try person.handle(descriptors[1].revents)
        }
        #expect(subscribed != nil && subscribed?.active == nil)
        #expect(focusOn == "Work")
        // The answer to set-focus may come after the event: wait for it, as a program may.
        if !changed { _ = try person.call(.getFocus()) }
        #expect(changed)
    }

    @Test("heraldd stopping is connectionLost: for the answer waiting, from handle, and a request after it is closed")
    func connectionLost() throws {
        let heraldd = try listeningHeraldd()
        let herald = try HeraldPollConnection(.init(socketPath: heraldd.socketPath))
        _ = try herald.call(.stats())
        _ = heraldd.stop()
        var unanswered: HeraldError?
        try herald.send(.stats()) { answer in
            if case .failure(let error) = answer { unanswered = error }
        }
        var lost: HeraldError?
        while lost == nil {
            var descriptor = pollfd(fd: herald.fileDescriptor, events: herald.pollEvents, revents: 0)
            guard poll(&descriptor, 1, 30_000) > 0 else { break }
            do { try herald.handle(descriptor.revents) } catch let error as HeraldError { lost = error }
        }
        #expect(lost?.kind == .connectionLost)
        #expect(unanswered?.kind == .connectionLost)
        #expect(herald.fileDescriptor == -1)
        let closed = #expect(throws: HeraldError.self) { try herald.send(.stats()) { _ in } }
        #expect(closed?.kind == .closed)
    }

    @Test("A handler that closes the connection is the last handler to run")
    func closingInAHandler() throws {
        let heraldd = try listeningHeraldd()
        let herald = try HeraldPollConnection(.init(socketPath: heraldd.socketPath))
        var answered = 0
        try herald.send(.stats()) { _ in
            answered += 1
            herald.close()
        }
        try herald.send(.stats()) { _ in answered += 1 }
        while herald.fileDescriptor >= 0 {
            var descriptor = pollfd(fd: herald.fileDescriptor, events: herald.pollEvents, revents: 0)
            guard poll(&descriptor, 1, 30_000) > 0 else { break }
            try herald.handle(descriptor.revents)
        }
        #expect(answered == 1)
        #expect(herald.fileDescriptor == -1)
    }

    @Test("A listen backlog that stays full is unreachable with EAGAIN for both connections, not a hang")
    func fullBacklog() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-backlog-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("full.sock").path
        // A listener that never accepts, with the smallest backlog.
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0 && listen(listener, 0) == 0)

        var configuration = HeraldClient.Configuration(socketPath: path)
        configuration.connectTimeout = .milliseconds(50)
        var queued: [HeraldPollConnection] = []
        var refusal: HeraldError?
        for _ in 0..<8 {
            do {
                queued.append(try HeraldPollConnection(configuration))
            } catch {
                refusal = error
                break
            }
        }
        #expect(refusal?.kind == .unreachable)
        #expect(refusal?.systemErrno == EAGAIN)
        #expect(queued.count >= 1, "the backlog took the first connections")

        let asynchronous = await #expect(throws: HeraldError.self) { _ = try await HeraldClient.connect(configuration) }
        #expect(asynchronous?.kind == .unreachable)
        #expect(asynchronous?.systemErrno == EAGAIN)
    }
}
