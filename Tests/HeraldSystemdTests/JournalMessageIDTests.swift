import Foundation
import Testing

@testable import HeraldSystemd

extension SystemdTests {
    @Suite("JournalMessageID and Units/herald.catalog")
    struct JournalMessageIDTests {
        static let catalogURL = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Units/herald.catalog")

        static let methods = [
            "rpc.discover", "stats", "donate", "update-content", "request-focus", "delete-interactions", "set-focus",
            "set-focus-authorization", "set-summary", "set-capabilities", "suggest-people", "snapshot",
        ]

        @Test func everyMethodHasTwoDistinctIDs() {
            #expect(Set(JournalMessageID.methods.keys) == Set(Self.methods))
            for method in Self.methods {
                #expect(JournalMessageID.forMethod(method, ok: true) != JournalMessageID.forMethod(method, ok: false))
            }
            #expect(JournalMessageID.forMethod("*", ok: false) == JournalMessageID.parseError)
            #expect(JournalMessageID.forMethod("no-such-method", ok: false) == JournalMessageID.methodNotFound)
            #expect(JournalMessageID.droppedEntries == "0b0c9b2c1d8e4f6aa3b1f1e2d3c4b5a6")
            let all = JournalMessageID.all
            #expect(Set(all).count == all.count, "ids are unique")
            #expect(all.count == 7 + 2 * Self.methods.count)
            for id in all {
                #expect(id.count == 32 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(id) is 128-bit lowercase hex")
            }
        }

        /// One catalog entry: its id and its header lines.
        struct CatalogEntry {
            var id: String
            var headers: [String: String] = [:]
            var body: [String] = []
        }

        static func parseCatalog() throws -> [CatalogEntry] {
            let text = try String(contentsOf: catalogURL, encoding: .utf8)
            var entries: [CatalogEntry] = []
            var inHeaders = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if line.hasPrefix("-- ") {
                    entries.append(CatalogEntry(id: String(line.dropFirst(3))))
                    inHeaders = true
                } else if entries.isEmpty {
                    #expect(line.isEmpty || line.hasPrefix("#"), "only comments before the first entry: \(line)")
                } else if inHeaders && line.isEmpty {
                    inHeaders = false
                } else if inHeaders, let colon = line.firstIndex(of: ":") {
                    entries[entries.count - 1].headers[String(line[..<colon])] =
                        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                } else {
                    entries[entries.count - 1].body.append(line)
                }
            }
            return entries
        }

        @Test func catalogHasEveryIDOnceWithSubjectAndBody() throws {
            let entries = try Self.parseCatalog()
            let ids = entries.map(\.id)
            #expect(ids.sorted() == JournalMessageID.all.sorted(), "the catalog and JournalMessageID agree, each id once")
            for entry in entries {
                #expect(entry.headers["Subject"]?.isEmpty == false, "\(entry.id) has a Subject")
                #expect(entry.headers["Defined-By"] == "Herald", "\(entry.id)")
                #expect(entry.headers["Support"]?.isEmpty == false, "\(entry.id) has Support")
                #expect(entry.body.contains { !$0.isEmpty }, "\(entry.id) has a body")
                #expect(!entry.body.joined().contains("TODO"), "\(entry.id) has no placeholder")
            }
        }

        /// journalctl compiles the catalog in a scratch root and lists every id.
        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/journalctl")))
        func journalctlAcceptsTheCatalog() throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("herald-catalog-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let directory = root.appendingPathComponent("usr/lib/systemd/catalog")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Self.catalogURL, to: directory.appendingPathComponent("herald.catalog"))

            #expect(try Self.run(["--root=\(root.path)", "--update-catalog"]).status == 0)
            let listing = try Self.run(["--root=\(root.path)", "--list-catalog"])
            #expect(listing.status == 0)
            let listed = listing.output.split(separator: "\n").map { String($0.prefix(32)) }
            #expect(listed.sorted() == JournalMessageID.all.sorted())
        }

        static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/journalctl")
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }
}
