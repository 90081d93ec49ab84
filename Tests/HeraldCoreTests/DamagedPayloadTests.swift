import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

@testable import HeraldCore

/// Damage inside a snapshot's payload, as a file whose checksums were made to hold would
/// carry it (the snapshot file's own checks are `HeraldStorageTests`'): every damaged
/// payload is refused with an error or loads, never traps, never reserves by the file's
/// own numbers; and whatever loads re-encodes into a payload that loads again.
@Suite struct DamagedPayloadTests {
    typealias F = Fixtures

    /// `BinaryStateCodingTests.richState()` with every table filled: a summary, a
    /// silenced mark, settings of two (uid, app)s.
    static func fullState() throws -> HeraldState {
        var state = try BinaryStateCodingTests.richState()
        state.summary = SummarySchedule(apps: [F.app], times: [ClockTime(hour: 9, minute: 0), ClockTime(hour: 18, minute: 30)])
        state.silenced.mark(.init(uid: 1000, app: F.app, conversationIdentifier: "c1"), activation: state.focus.activation)
        state.settings.setCapabilities(.defaults, uid: 1001, app: F.otherApp)
        return state
    }

    /// Decodes `bytes`: nil if refused; if it loads, its re-encoding must load too, with
    /// as many interactions.
    static func reload(_ bytes: [UInt8]) -> HeraldState? {
        guard let state = try? BinaryStateDecoder().decode(HeraldState.self, from: bytes) else { return nil }
        let again = (try? BinaryStateEncoder().encode(state)).flatMap { try? BinaryStateDecoder().decode(HeraldState.self, from: $0) }
        #expect(again?.interactionCount == state.interactionCount, "a payload that loaded does not re-encode into one that loads")
        return state
    }

    @Test func everyByteFlippedIsRefusedOrLoadsAndReencodes() throws {
        let bytes = try BinaryStateEncoder().encode(try Self.fullState())
        var loaded = 0
        for offset in bytes.indices {
            for pattern: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = bytes
                damaged[offset] ^= pattern
                if Self.reload(damaged) != nil { loaded += 1 }
            }
        }
        // Flips inside strings and dates load (their checksums are the file's); most are refused.
        #expect(loaded < bytes.count * 3)
    }

    @Test func everyTruncationIsRefused() throws {
        let bytes = try BinaryStateEncoder().encode(try Self.fullState())
        var refused = 0
        for length in 0..<bytes.count where Self.reload(Array(bytes.prefix(length))) == nil {
            refused += 1
        }
        #expect(refused == bytes.count)
    }

    @Test func randomDamageNeverCrashesTheDecoder() throws {
        let bytes = try BinaryStateEncoder().encode(try Self.fullState())
        var generator = SeededRandom(for: "randomDamageNeverCrashesTheDecoder")
        for _ in 0..<2000 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let index = Int.random(in: 0..<damaged.count, using: &generator)
                damaged[index] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) {
                damaged.removeLast(Int.random(in: 0..<damaged.count, using: &generator))
            }
            _ = Self.reload(damaged)
        }
    }

    /// A varint as the binary encoding writes it.
    static func varint(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        BinaryStateWriter.appendVarint(value, to: &bytes)
        return bytes
    }

    @Test func aHugeKeyCountIsRefusedBeforeAnythingIsReserved() throws {
        let bytes = try BinaryStateEncoder().encode(try Self.fullState())
        var offset = 0
        let source = try BinaryStateSource(bytes)
        _ = try source.readVarint(at: &offset)
        for count in [UInt64(bytes.count), UInt64(UInt32.max), UInt64.max] {
            let damaged = Self.varint(count) + bytes[offset...]
            #expect(throws: DecodingError.self) { try BinaryStateDecoder().decode(HeraldState.self, from: damaged) }
        }
    }

    @Test func aHugeElementCountOrLengthIsRefused() throws {
        // An array of three numbers: tag, 4 bytes of length, 4 bytes of count, elements.
        let bytes = try BinaryStateEncoder().encode([1, 2, 3])
        let root = try BinaryStateSource(bytes).rootOffset
        for (field, value) in [(5, UInt32.max), (5, 7), (1, UInt32.max), (1, 0), (1, 100)] {
            var damaged = bytes
            withUnsafeBytes(of: value.littleEndian) { damaged.replaceSubrange((root + field)..<(root + field + 4), with: $0) }
            #expect(throws: DecodingError.self, "field \(field) = \(value)") {
                try BinaryStateDecoder().decode([Int].self, from: damaged)
            }
        }
    }

    /// The shape of `HeraldState`'s binary payload with the interactions' tables given
    /// as they are to be written: to craft what the encoder never writes.
    struct CraftedState: Encodable {
        var apps: [String]
        var chunks: [[UInt8]]
        var state: HeraldState

        private enum StateKeys: String, CodingKey { case interactions, focus, silenced, summary, settings }
        private enum StoreKeys: String, CodingKey { case apps, recordChunks }

        init(_ state: HeraldState, apps: [String]? = nil, chunks: [[UInt8]]? = nil) throws {
            self.state = state
            self.apps = apps ?? state.interactions.apps.names
            if let chunks {
                self.chunks = chunks
            } else {
                var bytes: [UInt8] = []
                try InteractionRecordWriter.appending(to: &bytes) { writer in
                    try state.interactions.forEach(at: state.interactions.donationPositions) { try writer.append($1, at: $0) }
                }
                self.chunks = [bytes]
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: StateKeys.self)
            var store = container.nestedContainer(keyedBy: StoreKeys.self, forKey: .interactions)
            try store.encode(apps, forKey: .apps)
            var recordChunks = store.nestedUnkeyedContainer(forKey: .recordChunks) as! BinaryUnkeyedEncoding
            for chunk in chunks {
                recordChunks.encodeBytes { $0.append(contentsOf: chunk) }
            }
            try container.encode(state.focus, forKey: .focus)
            try container.encode(state.silenced, forKey: .silenced)
            try container.encode(state.summary, forKey: .summary)
            try container.encode(state.settings, forKey: .settings)
        }
    }

    @Test func theCraftedShapeLoadsAsItIs() throws {
        let state = try Self.fullState()
        let restored = try BinaryStateDecoder().decode(HeraldState.self, from: BinaryStateEncoder().encode(try CraftedState(state)))
        #expect(try BinaryStateCodingTests.canonicalJSON(restored) == BinaryStateCodingTests.canonicalJSON(state))
    }

    @Test func anAppNameListedTwiceIsRefused() throws {
        let state = try Self.fullState()
        let names = state.interactions.apps.names
        let bytes = try BinaryStateEncoder().encode(try CraftedState(state, apps: names + [names[0]]))
        #expect(throws: DecodingError.self) { try BinaryStateDecoder().decode(HeraldState.self, from: bytes) }
    }

    @Test func aRecordStoredTwiceIsRefused() throws {
        let state = try Self.fullState()
        let once = try CraftedState(state).chunks[0]
        let twice = try BinaryStateEncoder().encode(try CraftedState(state, chunks: [once, once]))
        #expect(throws: DecodingError.self) { try BinaryStateDecoder().decode(HeraldState.self, from: twice) }
    }

    @Test func manyEmptyChunksReserveNothingByTheirNumber() throws {
        // 200,000 empty chunks in a megabyte: reserving a full chunk's records for each
        // would ask for terabytes.
        let state = try Self.fullState()
        let bytes = try BinaryStateEncoder().encode(try CraftedState(state, chunks: Array(repeating: [], count: 200_000)))
        let restored = try BinaryStateDecoder().decode(HeraldState.self, from: bytes)
        #expect(restored.interactionCount == 0)
    }

    /// `state`'s JSON form, changed by `edit` on its `JSONSerialization` tree.
    static func editedJSON(_ state: HeraldState, _ edit: (inout [String: Any]) -> Void) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        var tree = try #require(try JSONSerialization.jsonObject(with: try encoder.encode(state)) as? [String: Any])
        edit(&tree)
        return try JSONSerialization.data(withJSONObject: tree)
    }

    /// Appends a copy of the first element of the array at `path` in `tree`.
    static func duplicateFirst(_ path: [String], in tree: inout [String: Any]) {
        guard let key = path.first else { return }
        if path.count == 1 {
            let array = tree[key] as? [Any] ?? []
            tree[key] = array + array.prefix(1)
        } else {
            var inner = tree[key] as? [String: Any] ?? [:]
            duplicateFirst(Array(path.dropFirst()), in: &inner)
            tree[key] = inner
        }
    }

    @Test func aSummaryTimeThatIsNoTimeOfDayIsRefused() throws {
        let state = try Self.fullState()
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let damaged = try Self.editedJSON(state) { tree in
            var summary = tree["summary"] as? [String: Any] ?? [:]
            summary["times"] = [["hour": 99, "minute": 0]]
            tree["summary"] = summary
        }
        #expect(throws: DecodingError.self) { try decoder.decode(HeraldState.self, from: damaged) }
    }

    @Test(arguments: [
        ["interactions", "apps"], ["interactions", "records"], ["settings"], ["silenced", "conversations"],
        ["summary", "apps"], ["summary", "times"],
    ])
    func anEntryListedTwiceInATableIsRefused(path: [String]) throws {
        let state = try Self.fullState()
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let intact = try Self.editedJSON(state) { _ in }
        #expect(try decoder.decode(HeraldState.self, from: intact).interactionCount == state.interactionCount)
        let damaged = try Self.editedJSON(state) { Self.duplicateFirst(path, in: &$0) }
        #expect(damaged != intact)
        #expect(throws: DecodingError.self) { try decoder.decode(HeraldState.self, from: damaged) }
    }
}
