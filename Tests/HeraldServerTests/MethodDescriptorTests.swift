import Foundation
import HeraldCore
import HeraldProtocol
import HeraldSystemd
import HeraldTesting
import Testing

@testable import HeraldServer

/// The method descriptors are the one place a method is described: the method table,
/// `Protocol/openrpc.json` and `Units/herald.catalog` must agree with them.
@Suite("Method descriptors against the method table, openrpc.json and the journal catalog")
struct MethodDescriptorTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let catalogURL = root.appendingPathComponent("Units/herald.catalog")

    /// Each method in `openrpc.json`: its name and its description.
    static func documentedMethods() throws -> [(name: String, description: String)] {
        let text = try String(contentsOf: root.appendingPathComponent("Protocol/openrpc.json"), encoding: .utf8)
        let methods = try #require(IndependentJSON.parse(text)[pointer: "/methods"]?.arrayValue)
        return methods.map { ($0[pointer: "/name"]?.stringValue ?? "", $0[pointer: "/description"]?.stringValue ?? "") }
    }

    /// Herald's method table over an empty state.
    static func table() -> MethodTable {
        let environment = MethodEnvironment(
            state: SharedState(HeraldState()),
            clock: ManualClock(),
            statistics: ServerStatistics(),
            openRPCDocument: [:]
        )
        return MethodTable.herald(environment, subscriptions: FocusSubscriptions(registry: ConnectionRegistry()))
    }

    @Test func theTableServesExactlyTheDescribedMethods() {
        let table = Self.table()
        let described = HeraldMethods.all.map { $0.name }
        #expect(Set(described).count == described.count, "each method is described once")
        #expect(table.methodNames == described.sorted())
        for method in HeraldMethods.all {
            #expect(table.entry(named: method.name)?.access == method.access, "\(method.name)")
        }
    }

    @Test("Where a request is answered follows its descriptor; a batch goes where its most demanding request does")
    func placementFollowsTheDescriptors() {
        let table = Self.table()
        func request(_ method: String) -> JSONValue {
            .object(JSONObject(["jsonrpc": "2.0", "id": 1, "method": .string(method)]))
        }
        for method in HeraldMethods.all {
            #expect(table.placement(of: request(method.name)) == method.placement, "\(method.name), without params")
        }
        // A full list takes about 100 ms to build and write, a snapshot seconds.
        #expect(ListNotificationsMethod.placement == .thread)
        #expect(SnapshotMethod.placement == .idleThread)
        // A scan of every interaction, seconds for a million.
        #expect(SuggestPeopleMethod.placement == .idleThread)
        // A group's deletion scans the uid's interactions; a few identifiers are looked up.
        #expect(DeleteInteractionsMethod.placement == .thread)
        func delete(_ params: JSONObject) -> JSONValue {
            .object(JSONObject(["jsonrpc": "2.0", "id": 1, "method": "delete-interactions", "params": .object(params)]))
        }
        #expect(table.placement(of: delete(["app": "a", "groupIdentifier": "g"])) == .thread)
        #expect(table.placement(of: delete(["app": "a", "all": true])) == .thread)
        #expect(table.placement(of: delete(["app": "a", "identifiers": ["m1", "m2"]])) == .eventLoop)
        let many = JSONValue.array((0...DeleteInteractionsMethod.deletionStep).map { .string("m\($0)") })
        #expect(table.placement(of: delete(["app": "a", "identifiers": many])) == .thread)
        #expect(table.placement(of: delete(["app": "a", "identifiers": "m1"])) == .thread, "for the reader to refuse")
        // The handler decides look-up or search by the same rule.
        let step = DeleteInteractionsMethod.deletionStep
        #expect(DeleteInteractionsMethod.isLookUp(identifierCount: step))
        #expect(!DeleteInteractionsMethod.isLookUp(identifierCount: step + 1))
        #expect(!DeleteInteractionsMethod.isLookUp(identifierCount: nil))
        #expect(table.placement(of: request("donate")) == .eventLoop)
        #expect(table.placement(of: request("no-such-method")) == .eventLoop)
        #expect(table.placement(of: JSONValue.array([request("donate"), request("list-notifications")])) == .thread)
        #expect(table.placement(of: JSONValue.array([request("list-notifications"), request("snapshot"), request("donate")])) == .idleThread)
        #expect(table.placement(of: JSONValue.array([request("donate"), request("request-focus")])) == .eventLoop)
    }

    @Test func openRPCListsTheDescribedMethodsInOrder() throws {
        let documented = try Self.documentedMethods()
        #expect(documented.map(\.name) == HeraldMethods.all.map { $0.name })
        for method in HeraldMethods.all {
            let description = documented.first { $0.name == method.name }?.description ?? ""
            #expect(
                description.contains("Administrators only") == method.requiresAdministrator,
                "\(method.name): the description says \"Administrators only\" exactly when the method requires an administrator"
            )
        }
    }

    /// The Methods table of `Protocol/README.md`: each method's name and its "who" cell.
    static func documentedAccess() throws -> [String: String] {
        let text = try String(contentsOf: root.appendingPathComponent("Protocol/README.md"), encoding: .utf8)
        let table = try #require(text.components(separatedBy: "| method | who | summary |").dropFirst().first)
        var rows: [String: String] = [:]
        for line in table.split(separator: "\n").dropFirst() {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, cells[0].hasPrefix("`") else { continue }
            rows[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[1]
        }
        return rows
    }

    @Test("Who may call each method: the descriptor, openrpc.json, the Protocol docs and the behaviour agree")
    func accessAgreesEverywhere() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("Protocol/openrpc.json"), encoding: .utf8)
        let methods = try #require(IndependentJSON.parse(text)[pointer: "/methods"]?.arrayValue)
        let documented = try Self.documentedAccess()
        #expect(Set(documented.keys) == Set(HeraldMethods.all.map { $0.name }), "the table has a row per method")
        let app = AppIdentity(id: "org.example.chat", source: .flatpak)
        let verified = RequestContext(caller: Caller(uid: 1000, gid: 1000, pid: 2, isAdministrator: false, app: app))
        let person = RequestContext(caller: Caller(uid: 1000, gid: 1000, pid: 3, isAdministrator: false))
        var requiring = MethodEnvironment(
            state: SharedState(HeraldState()), clock: ManualClock(), statistics: ServerStatistics(), openRPCDocument: [:]
        )
        requiring.requireAppIdentity = true
        let table = Self.table()
        let strictTable = MethodTable.herald(requiring, subscriptions: FocusSubscriptions(registry: ConnectionRegistry()))
        func code(_ table: MethodTable, _ name: String, _ params: JSONValue, _ context: RequestContext) -> Int? {
            do {
                var output: [UInt8] = []
                _ = try table.entry(named: name)?.invoke(JSONTape(params).root, context, &output)
                return nil
            } catch {
                return error.code.rawValue
            }
        }
        for method in HeraldMethods.all {
            let name = method.name
            let entry = methods.first { $0[pointer: "/name"]?.stringValue == name }
            #expect(entry?[pointer: "/x-herald-access"]?.stringValue == method.access.rawValue, "\(name): x-herald-access")
            #expect(documented[name] == method.access.summary, "\(name): the Protocol docs' who")
            let description = entry?[pointer: "/description"]?.stringValue ?? ""
            if method.access != .administrator {
                #expect(description.contains("Who may call: \(method.access.summary)"), "\(name): the description says who")
            }
            if method.access == .app {
                let params = entry?[pointer: "/params"]?.arrayValue ?? []
                #expect(params.contains { $0[pointer: "/name"] == "app" }, "\(name): an app's method takes app")
            }
            // A verified app naming another app is refused by every method but anyone's.
            let another: JSONValue = ["app": "org.example.pager"]
            #expect((code(table, name, another, verified) == 1006) == (method.access != .anyone), "\(name) for a verified app")
            // The person is refused only an administrator's, and under --require-app-identity an app's.
            if method.access == .administrator || method.access == .app {
                #expect((code(strictTable, name, another, person) == 1006), "\(name) for the person, identity required")
            }
            if method.access == .administrator {
                #expect(code(table, name, [:], person) == 1006, "\(name) for the person")
            }
        }
    }

    @Test func journalIDsAreDistinct128BitHex() {
        let all = JournalMessageID.all + HeraldMethods.all.flatMap { [$0.journalMessageIDs.ok, $0.journalMessageIDs.error] }
        #expect(Set(all).count == all.count, "every MESSAGE_ID is used once")
        for id in all {
            #expect(id.count == 32 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(id) is 128-bit lowercase hex")
        }
    }

    @Test func theCatalogExplainsEveryIDOnce() throws {
        let entries = try JournalCatalog.read(Self.catalogURL)
        let expected = JournalMessageID.all + HeraldMethods.all.flatMap { [$0.journalMessageIDs.ok, $0.journalMessageIDs.error] }
        #expect(entries.map(\.id).sorted() == expected.sorted(), "the catalog and the descriptors agree, each id once")
        for entry in entries {
            #expect(entry.headers["Subject"]?.isEmpty == false, "\(entry.id) has a Subject")
            #expect(entry.headers["Defined-By"] == "Herald", "\(entry.id)")
            #expect(entry.headers["Support"]?.isEmpty == false, "\(entry.id) has Support")
            #expect(entry.body.contains { !$0.isEmpty }, "\(entry.id) has a body")
            #expect(!entry.body.joined().contains("TODO"), "\(entry.id) has no placeholder")
        }
        for method in HeraldMethods.all {
            let subject = entries.first { $0.id == method.journalMessageIDs.ok }?.headers["Subject"] ?? ""
            #expect(subject.contains(method.name), "the catalog's entry for \(method.name)'s result names it: \(subject)")
            let refused = entries.first { $0.id == method.journalMessageIDs.error }?.headers["Subject"] ?? ""
            #expect(refused.contains(method.name), "the catalog's entry for \(method.name)'s error names it: \(refused)")
        }
    }

    /// Read from the sources rather than from `JournalMessageID.all`, which is a list by
    /// hand: an id written anywhere in Sources has a catalog entry, an entry's id is written
    /// in Sources, and each of the daemon's own ids is emitted somewhere.
    @Test func theCatalogHoldsExactlyTheIDsTheSourcesWriteAndEmit() throws {
        let sources = try Self.swiftSources()
        let literal = /"([0-9a-f]{32})"/
        var written: [String: String] = [:]
        for (path, text) in sources {
            for match in text.matches(of: literal) { written[String(match.1)] = path }
        }
        let catalog = Set(try JournalCatalog.read(Self.catalogURL).map(\.id))
        for (id, path) in written.sorted(by: { $0.key < $1.key }) {
            #expect(catalog.contains(id), "\(id), written in \(path), has a catalog entry")
        }
        for id in catalog.sorted() {
            #expect(written[id] != nil, "the catalog's \(id) is written in Sources")
        }
        #expect(
            Set(JournalMessageID.all)
                == Set(written.keys).subtracting(HeraldMethods.journalMessageIDs.values.flatMap { [$0.ok, $0.error] }))

        let declarations = try #require(sources.first { $0.path.hasSuffix("HeraldSystemd/JournalMessageIDs.swift") })
        let constants = declarations.text.matches(of: /static let (\w+) = "[0-9a-f]{32}"/).map { String($0.1) }
        #expect(constants.count == JournalMessageID.all.count)
        for name in constants {
            let emitters = sources.filter { $0.path != declarations.path && $0.text.contains("JournalMessageID.\(name)") }
            #expect(!emitters.isEmpty, "JournalMessageID.\(name) is emitted somewhere in Sources")
        }
    }

    /// Every Swift file under Sources but the generated ones, with its path from the root.
    static func swiftSources() throws -> [(path: String, text: String)] {
        let sources = root.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var files: [(path: String, text: String)] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" && !url.path.contains("/Generated/") {
            files.append((String(url.path.dropFirst(root.path.count + 1)), try String(contentsOf: url, encoding: .utf8)))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// journalctl compiles the catalog in a scratch root and lists every id in it.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/journalctl")))
    func journalctlAcceptsTheCatalog() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("herald-catalog-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("usr/lib/systemd/catalog")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.catalogURL, to: directory.appendingPathComponent("herald.catalog"))

        _ = try runCapturingOutput("/usr/bin/journalctl", ["--root=\(root.path)", "--update-catalog"], input: "")
        let listing = try runCapturingOutput("/usr/bin/journalctl", ["--root=\(root.path)", "--list-catalog"], input: "")
        let listed = listing.split(separator: "\n").map { String($0.prefix(32)) }
        #expect(listed.sorted() == (try JournalCatalog.read(Self.catalogURL)).map(\.id).sorted())
    }
}

/// `Units/herald.catalog` read as journalctl reads it: entries of an id, headers, a body.
enum JournalCatalog {
    struct Entry {
        var id: String
        var headers: [String: String] = [:]
        var body: [String] = []
    }

    static func read(_ url: URL) throws -> [Entry] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var entries: [Entry] = []
        var inHeaders = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("-- ") {
                entries.append(Entry(id: String(line.dropFirst(3))))
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
}
