import Glibc
import HeraldClient

/// Donates the interactions an `update-content` run refers to: `pool-0` … `pool-<n-1>`,
/// 64 to a batch line, each answer checked.
enum InteractionPool {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func donate(socketPath: String, count: UInt64) throws {
        let heraldd = try HeraldPollConnection(HeraldClient.Configuration(socketPath: socketPath), waitsInRead: true)
        defer { heraldd.close() }
        let template = RequestTemplate(Scenario.donation(identifier: "pool-{KEY}"))
        var failure: HeraldError?
        heraldd.onRenderedAnswer = { answer in failure = failure ?? answer.error }
        var next: UInt64 = 0
        while next < count {
            let first = next
            let end = min(count, next + 64)
            try heraldd.sendRendered(count: Int(end - first)) { firstID, output in
                output.append(UInt8(ascii: "["))
                for key in first..<end {
                    if key > first { output.append(UInt8(ascii: ",")) }
                    template.render(id: UInt64(firstID) + key - first, key: key, into: &output)
                }
                output.append(UInt8(ascii: "]"))
            }
            next = end
            while heraldd.answersWaiting > 0 { try heraldd.handle(Int16(POLLIN | POLLOUT)) }
            if let failure { throw Failure(description: "pool: \(failure)") }
        }
    }
}
