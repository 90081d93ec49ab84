import ArgumentParser
import Foundation
import HeraldCore
import HeraldProtocol

/// `herald-bench store-donate`: what the state's part of a `donate` costs once the store is
/// full, in one process and one thread — no socket, no lock, no second event loop — so that
/// a change to the store is measured without the noise of a shared machine's scheduler.
///
/// It fills a `HeraldState` (default limits) with `--fill` donations of `make bench`'s
/// `donate` shape from one uid, then times `--count` more, each evicting the uid's oldest
/// once it holds its 500,000: the locked step heraldd runs (`donate(_:caller:now:retry:)`)
/// and freeing what it evicted. The params are read and prepared before the clock starts.
struct StoreDonateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store-donate",
        abstract: "Time the state's part of donate on a full store, in one process."
    )

    @Option(help: "Donations stored before the clock starts.")
    var fill = 500_000

    @Option(help: "Donations timed, in four equal parts; the fastest part is reported.")
    var count = 1_000_000

    func validate() throws {
        guard fill >= 0, count >= 4 else { throw ValidationError("--fill must be at least 0 and --count at least 4.") }
    }

    func run() throws {
        let caller = Caller(uid: 1000, gid: 1000, pid: 1, isAdministrator: false)
        var donations: [PreparedDonation] = []
        donations.reserveCapacity(fill + count)
        var line: [UInt8] = []
        for index in 0..<(fill + count) {
            line.removeAll(keepingCapacity: true)
            Scenario.donate.requestTemplate(connection: 0).render(id: UInt64(index), key: UInt64(index), into: &line)
            guard let params = try JSONTape.parse(line).root[member: "params"] else {
                throw ValidationError("The donate line has no params.")
            }
            donations.append(try HeraldState.prepareDonation(try DonateMethod.decodeParams(params.asRoot)))
        }
        var state = HeraldState()
        let now = Date()
        for donation in donations[..<fill] {
            _ = try state.donate(donation, caller: caller, now: now, retry: nil)
        }
        let part = count / 4
        var next = fill
        var best = Double.infinity
        for _ in 0..<4 {
            let start = MonotonicClock.now
            for donation in donations[next..<(next + part)] {
                _ = try state.donate(donation, caller: caller, now: now, retry: nil)
            }
            next += part
            best = min(best, Double(MonotonicClock.now - start) / Double(part))
        }
        print("store-donate: \(Int(best.rounded())) ns per donation (the fastest of 4 parts of \(part)), \(state.interactionCount) stored")
    }
}
