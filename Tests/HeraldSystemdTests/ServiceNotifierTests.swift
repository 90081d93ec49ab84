import Foundation
import Testing

@testable import HeraldSystemd

extension SystemdTests {
    @Suite("ServiceNotifier")
    struct ServiceNotifierTests {
        static let childRole = "service-notifier"

        @Test(.enabled(if: getenv("NOTIFY_SOCKET") == nil, "this process runs under systemd"))
        func isANoOpWithoutNotifySocket() {
            let notifier = ServiceNotifier()
            #expect(!notifier.ready())
            #expect(!notifier.status("serving"))
            #expect(!notifier.watchdog())
            #expect(!notifier.stopping())
            #expect(ServiceNotifier.watchdogInterval() == nil)
        }

        /// Plays systemd's part: a datagram socket named by the child's `NOTIFY_SOCKET`, and
        /// the child's `WATCHDOG_USEC`.
        @Test func sendsStatesToNotifySocketAndReadsTheWatchdog() throws {
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("herald-notify-\(UUID().uuidString.prefix(8))").path
            let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            try #require(fd >= 0)
            defer {
                close(fd)
                unlink(path)
            }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8.prefix($0.count - 1)) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            try #require(bound == 0)

            let child = try TestChild.run(
                test: "notifyAsChild",
                role: Self.childRole,
                environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000"]
            )
            #expect(child.status == 0, "child output:\n\(child.output)")
            #expect(
                Self.receiveAll(fd) == [
                    "READY=1\nSTATUS=serving /run/herald/herald.sock",
                    "STATUS=3 clients",
                    "WATCHDOG=1",
                    "STOPPING=1",
                ])
            #expect(child.observed["sent"] == "true,true,true,true")
            #expect(child.observed["watchdog"] == "30.0 seconds")
            #expect(child.observed["watchdogForAnotherProcess"] == "none")
        }

        /// The child side of ``sendsStatesToNotifySocketAndReadsTheWatchdog()``.
        @Test(.enabled(if: TestChild.plays(childRole), "runs only in a child process with NOTIFY_SOCKET set"))
        func notifyAsChild() throws {
            let notifier = ServiceNotifier()
            let sent = [
                notifier.ready(status: "serving\n/run/herald/herald.sock"),
                notifier.status("3 clients"),
                notifier.watchdog(),
                notifier.stopping(),
            ]
            let watchdog = ServiceNotifier.watchdogInterval()
            setenv("WATCHDOG_PID", "1", 1)  // the pings are meant for PID 1, not for us
            let watchdogForAnotherProcess = ServiceNotifier.watchdogInterval()
            try TestChild.report([
                "sent": sent.map(String.init).joined(separator: ","),
                "watchdog": watchdog.map { "\($0)" } ?? "none",
                "watchdogForAnotherProcess": watchdogForAnotherProcess.map { "\($0)" } ?? "none",
            ])
        }

        /// Every datagram waiting on `fd`.
        static func receiveAll(_ fd: Int32) -> [String] {
            var messages: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                guard count > 0 else { return messages }
                messages.append(String(decoding: buffer.prefix(count), as: UTF8.self))
            }
        }
    }
}
