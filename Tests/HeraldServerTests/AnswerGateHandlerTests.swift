import Foundation
import HeraldCore
import NIOCore
import NIOEmbedded
import Synchronization
import Testing

@testable import HeraldServer
@testable import HeraldStorage

@Suite("Answer gate")
struct AnswerGateHandlerTests {
    /// A read's answers past 16 KiB are passed on in pieces before its flush: the event
    /// loop writes the log once for all of them, at the end of its turn. (The log's own
    /// thread may write too, at its once-a-second sync: the test counts the loop's commits.)
    @Test("Answers passed on in pieces before a flush share one write of the log, made at the end of the loop's turn")
    func piecesShareOneWrite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-gate-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = ChangeLog(
            folder: folder, durability: .logEverysec, baseGeneration: 0, continuing: false,
            health: PersistenceHealth(folder: folder, policy: .refuse, startedAt: Date()))
        defer { log.stop() }
        let loopWrites = Atomic<Int>(0)
        let gate = AnswerGate(
            appended: { log.appendedSequence }, written: { log.writtenSequence },
            whenWritten: { sequence, callback in log.whenWritten(sequence, callback) },
            commit: {
                loopWrites.add(1, ordering: .relaxed)
                log.commit()
            })
        let channel = EmbeddedChannel(handler: AnswerGateHandler(gate: gate))
        let caller = Caller(uid: 1000, gid: 1000, pid: 10, isAdministrator: false)

        for piece in 0..<3 {
            log.append(ChangeRecord(method: "donate", caller: caller, appliedAt: Date(), params: Array("{}".utf8)))
            channel.write(channel.allocator.buffer(string: "answer \(piece)\n"), promise: nil)
        }
        #expect(loopWrites.load(ordering: .relaxed) == 0)
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)

        channel.flush()
        channel.flush()
        // The commit waits for the end of the turn, after every flush of it.
        #expect(loopWrites.load(ordering: .relaxed) == 0)
        channel.embeddedEventLoop.run()
        #expect(loopWrites.load(ordering: .relaxed) == 1)
        // Written by the turn's commit, or by the log's thread if it held the file
        // meanwhile: then the answers leave on the loop's next turn.
        log.waitUntilWritten(log.appendedSequence)
        channel.embeddedEventLoop.run()
        var answers: [String] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            answers.append(String(buffer: buffer))
        }
        #expect(answers == ["answer 0\n", "answer 1\n", "answer 2\n"])
        _ = try channel.finish()
    }
}
