import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

@testable import HeraldCore
@testable import HeraldStorage

/// The store's record of an interaction (``EncodedInteraction``): what it reads in place
/// agrees with what it decodes, and reading one to keep its bytes checks what a full read
/// checks, with the same errors.
@Suite("Encoded interactions")
struct EncodedInteractionTests {
    typealias F = SnapshotFixtures

    @Test("Decoded, read in place and read again from its bytes, a record is the interaction it encodes")
    func membersReadInPlaceAgreeWithTheDecodedOnes() throws {
        var random = SeededRandom(seed: 107)
        for index in 0..<500 {
            let interaction = InteractionRecordBytesTests.interaction(index, &random)
            let record = EncodedInteraction(interaction)
            #expect(record.interaction == interaction, "interaction \(index)")
            #expect(record.identifier == interaction.identifier, "interaction \(index)")
            #expect(record.date == interaction.date, "interaction \(index)")
            #expect(record.isOutgoing == (interaction.direction == .outgoing), "interaction \(index)")
            #expect(record.isIncomingCall == (CallHistory.caller(of: interaction) != nil), "interaction \(index)")
            let kept = try record.bytes.withUnsafeBytes { raw in
                var reader = InteractionRecordReader(file: raw, range: 0..<raw.count, appCount: 0, rareMembers: .json)
                let kept = try EncodedInteraction(reading: &reader)
                #expect(reader.isAtEnd)
                return kept
            }
            #expect(kept == record, "interaction \(index)")
        }
    }

    @Test("Kept as bytes, a damaged record is refused with the error a full read gives, at the same byte")
    func checkingToKeepRefusesWhatAFullReadRefuses() throws {
        var random = SeededRandom(seed: 46)
        var refused = 0
        for index in 0..<400 {
            var bytes = EncodedInteraction(InteractionRecordBytesTests.interaction(index, &random)).bytes
            // One to three bytes changed, or the record cut short.
            if random.next() % 4 == 0 {
                bytes.removeLast(1 + Int(random.next() % UInt64(bytes.count)))
            } else {
                for _ in 0..<1 + Int(random.next() % 3) {
                    bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            let (full, kept) = bytes.withUnsafeBytes { raw -> (String, String) in
                var reader = InteractionRecordReader(file: raw, range: 0..<raw.count, appCount: 0, rareMembers: .json)
                let full = Result { () throws(SnapshotFileError) in try reader.interaction() }
                let fullEnd = reader.input.cursor
                reader = InteractionRecordReader(file: raw, range: 0..<raw.count, appCount: 0, rareMembers: .json)
                let kept = Result { () throws(SnapshotFileError) in try EncodedInteraction(reading: &reader) }
                switch (full, kept) {
                case (.failure(let full), .failure(let kept)): return (full.description, kept.description)
                case (.success(let value), .success(let record)):
                    // Kept as read, or (flags not padded) encoded again: the same interaction.
                    return ("read to \(fullEnd)", record.interaction == value ? "read to \(reader.input.cursor)" : "another interaction")
                case (.success, .failure(let kept)): return ("read to \(fullEnd)", kept.description)
                case (.failure(let full), .success): return (full.description, "kept")
                }
            }
            #expect(full == kept, "record \(index)")
            if full.hasPrefix("undecodable") { refused += 1 }
        }
        #expect(refused > 100, "most damaged records are refused")
    }

    @Test("A record whose flags are a shorter varint than the writer's is read, and kept encoded as the writer would")
    func unpaddedFlagsAreReadAndKeptPadded() throws {
        var random = SeededRandom(seed: 7)
        var checked = 0
        for index in 0..<300 {
            let interaction = InteractionRecordBytesTests.interaction(index, &random)
            let record = EncodedInteraction(interaction)
            guard record.flags.rawValue < 0x80 else { continue }
            let short = [UInt8(record.flags.rawValue)] + record.bytes.dropFirst(InteractionRecordLayout.flagsWidth)
            let kept = try short.withUnsafeBytes { raw in
                var reader = InteractionRecordReader(file: raw, range: 0..<raw.count, appCount: 0, rareMembers: .json)
                return try EncodedInteraction(reading: &reader)
            }
            #expect(kept == record, "interaction \(index)")
            #expect(kept.date == interaction.date && kept.identifier == interaction.identifier, "interaction \(index)")
            checked += 1
        }
        #expect(checked > 10)
    }

    @Test("A retry is told identical by value when the bytes differ: a date of -0 is the date 0")
    func aRetryWithAnotherEncodingOfTheSameValueIsIdentical() throws {
        var state = try F.fullState()
        var first = F.message("zero")
        first.date = Date(timeIntervalSinceReferenceDate: 0)
        var again = first
        again.date = Date(timeIntervalSinceReferenceDate: -0.0)
        #expect(EncodedInteraction(first) != EncodedInteraction(again), "two encodings")
        try F.donate(&state, first)
        let count = state.interactionCount
        try F.donate(&state, again, at: F.now + 5)
        #expect(state.interactionCount == count)
        var other = first
        other.groupIdentifier = "another"
        #expect(throws: RuleError.self) { try F.donate(&state, other, at: F.now + 6) }
    }
}
