import Foundation
import HeraldTesting
import Testing

/// The Swift client's calls, types and events are Protocol/openrpc.json's: generating them
/// again gives the committed files.
@Suite("The generated Swift surface")
struct GeneratedSurfaceTests {
    @Test("scripts/generate-swift-client.py writes the committed Sources/HeraldClient/Generated")
    func generatedFilesAreCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-swift-client-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let generator = try ChildProcess(
            "/usr/bin/python3",
            [root.appendingPathComponent("scripts/generate-swift-client.py").path, folder.path]
        )
        #expect(generator.waitForExit(timeout: 60) == 0)
        let committed = root.appendingPathComponent("Sources/HeraldClient/Generated")
        let names = try FileManager.default.contentsOfDirectory(atPath: committed.path).sorted()
        #expect(names == (try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()))
        for name in names {
            let fresh = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let kept = try String(contentsOf: committed.appendingPathComponent(name), encoding: .utf8)
            #expect(fresh == kept, "\(name) differs from what scripts/generate-swift-client.py writes: run it again")
        }
    }
}
