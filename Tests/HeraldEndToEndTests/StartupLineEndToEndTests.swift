import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The start-up line tells an operator where the state lives, which generation was
/// restored and how old it is, and whether the daemon before stopped without its final
/// snapshot.
@Suite("Start-up line, end to end")
struct StartupLineEndToEndTests {
    @Test("Empty, then the generation a clean stop wrote, then a kill -9 named as unclean")
    func startupLine() throws {
        let folder = SnapshotEndToEndTests.StateFolder()
        /// The line, once written: the socket exists a moment before it is.
        func servingLine(_ herald: HeraldProcess) -> String {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if let line = herald.stderr.split(separator: "\n").first(where: { $0.hasPrefix("heraldd: serving on") }) {
                    return String(line)
                }
                usleep(20_000)
            }
            return ""
        }

        let first = try folder.start()
        let empty = servingLine(first)
        #expect(empty.contains("state in \(folder.path)"), "\(empty)")
        #expect(empty.contains("no snapshot yet: starting empty"), "\(empty)")
        #expect(!empty.contains("did not stop cleanly"), "\(empty)")
        try SnapshotEndToEndTests.donate(["m-1", "m-2"], to: first)
        #expect(first.stop() == 0)

        let second = try folder.start()
        let restored = servingLine(second)
        #expect(restored.contains("generation 1 restored (2 interactions, written "), "\(restored)")
        #expect(!restored.contains("did not stop cleanly"), "a SIGTERM stop is clean: \(restored)")
        let killed = second.process.pid
        second.process.signal(SIGKILL)
        _ = second.waitForExit(timeout: 10)

        let third = try folder.start()
        let unclean = servingLine(third)
        #expect(unclean.contains("the previous heraldd (pid \(killed)) did not stop cleanly"), "\(unclean)")
        #expect(third.stop() == 0)
    }
}
