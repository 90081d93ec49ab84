import Foundation
import Testing

@testable import HeraldSystemd

extension SystemdTests {
    @Suite("SocketActivation")
    struct SocketActivationTests {
        static let childRole = "socket-activation"
        static let socketActivate = "/usr/bin/systemd-socket-activate"

        @Test func choosesTheSocketNamedHeraldElseTheFirst() {
            let other = ListenedSocket(fd: 3, name: "other")
            let herald = ListenedSocket(fd: 4, name: "herald")
            #expect(SocketActivation.chooseHeraldSocket([other, herald]) == herald)
            #expect(SocketActivation.chooseHeraldSocket([other]) == other)
            #expect(SocketActivation.chooseHeraldSocket([]) == nil)
        }

        @Test(.enabled(if: getenv("LISTEN_PID") == nil, "this process was itself socket-activated"))
        func noSocketsWithoutActivation() {
            #expect(SocketActivation.listenedSockets().isEmpty)
        }

        /// systemd-socket-activate listens on two Unix sockets, named `other` and `herald`,
        /// and at the first connection starts this test binary with them on fds 3 and 4 and
        /// `LISTEN_FDS`, `LISTEN_PID`, `LISTEN_FDNAMES` set, exactly as systemd would.
        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: socketActivate)))
        func findsSocketsPassedAsSystemdPassesThem() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-sa-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let other = directory.appendingPathComponent("other.sock").path
            let herald = directory.appendingPathComponent("herald.sock").path

            let child = try TestChild.run(
                test: "reportListenedSockets",
                role: Self.childRole,
                launcher: [
                    Self.socketActivate, "--listen=\(other)", "--listen=\(herald)", "--fdname=other:herald",
                    "--setenv=\(TestChild.roleVariable)", "--setenv=\(TestChild.resultVariable)",
                ],
                beforeWaiting: { try Self.connect(toFirstExisting: herald, within: .seconds(10)) }
            )
            #expect(child.status == 0, "child output:\n\(child.output)")
            #expect(child.observed["sockets"] == "3:other,4:herald")
            #expect(child.observed["chosen"] == "4")
            #expect(child.observed["environmentLeft"] == "")
            #expect(child.observed["cloexec"] == "true")
            #expect(child.observed["secondCall"] == "0")
        }

        /// The child side of ``findsSocketsPassedAsSystemdPassesThem()``.
        @Test(.enabled(if: TestChild.plays(childRole), "runs only in a child process started by systemd-socket-activate"))
        func reportListenedSockets() throws {
            let sockets = SocketActivation.listenedSockets()
            let environment = ProcessInfo.processInfo.environment  // read after the call above
            let environmentLeft = ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"].filter { environment[$0] != nil }
            try TestChild.report([
                "sockets": sockets.map { "\($0.fd):\($0.name)" }.joined(separator: ","),
                "chosen": SocketActivation.chooseHeraldSocket(sockets).map { String($0.fd) } ?? "none",
                "environmentLeft": environmentLeft.joined(separator: ","),
                "cloexec": String(sockets.allSatisfy { fcntl($0.fd, F_GETFD) & FD_CLOEXEC != 0 }),
                "secondCall": String(SocketActivation.listenedSockets().count),
            ])
        }

        /// Connects to `path` (which systemd-socket-activate creates), retrying until it exists.
        static func connect(toFirstExisting path: String, within timeout: Duration) throws {
            let deadline = ContinuousClock.now + timeout
            while true {
                let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                try #require(fd >= 0)
                defer { close(fd) }
                var address = sockaddr_un()
                address.sun_family = sa_family_t(AF_UNIX)
                withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8.prefix($0.count - 1)) }
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
                if connected == 0 {
                    return
                }
                try #require(ContinuousClock.now < deadline, "could not connect to \(path)")
                usleep(20_000)
            }
        }
    }
}
