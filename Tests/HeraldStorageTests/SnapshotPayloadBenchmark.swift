import Foundation
import HeraldCore
import Testing

@testable import HeraldStorage

/// Times a snapshot's encode and decode; run in release with
/// `HERALD_BENCH=1 swift test -c release --filter SnapshotPayloadBenchmark`.
/// `HERALD_BENCH_N` sets the interactions (default 1,000,000); `HERALD_BENCH_JSON=1`
/// times the JSON payload too.
@Suite("Snapshot payload benchmark")
struct SnapshotPayloadBenchmark {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["HERALD_BENCH"] != nil))
    func encodeAndDecode() throws {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["HERALD_BENCH_N"].flatMap(Int.init) ?? 1_000_000
        var encodings: [(String, UInt32)] = [("binary", SnapshotHeader.binaryEncoding)]
        if environment["HERALD_BENCH_JSON"] != nil {
            encodings.append(("json", SnapshotHeader.jsonEncoding))
        }
        let state = try stateWithMessages(count)
        let clock = ContinuousClock()
        for (name, encoding) in encodings {
            var file: SnapshotFile?
            let encodeTime = try clock.measure {
                file = try SnapshotFile(encoding: state, generation: 1, now: Date(), payloadEncoding: encoding)
            }
            let bytes = Data(file!.header.bytes) + file!.payload
            var restored = 0
            let decodeTime = try clock.measure {
                restored = try SnapshotFile.decode(bytes).state.interactionCount
            }
            #expect(restored == count)
            print(
                "snapshot payload \(name): \(count) interactions, encode \(encodeTime), decode \(decodeTime), \(bytes.count) bytes (\(bytes.count / max(count, 1)) per interaction)"
            )
        }
    }
}
