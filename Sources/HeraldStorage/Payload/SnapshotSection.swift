import Dispatch
import FoundationEssentials
import HeraldCore
import HeraldProtocol
import Synchronization

/// All at once on threads of their own, as many as there are cores: for work nothing else
/// waits on (a restore at start-up, a benchmark, a test). Not on Dispatch's global queues,
/// whose first thread starts a monitor that wakes heraldd every second for good
/// (docs/operations.md, "At rest"). The daemon's snapshots run on threads of their own
/// below the event loops' priority instead.
///
/// Thread `t` of `n` takes `t`, `t + n`, `t + 2n` …: the low indexes first, which a restore
/// inserts first.
package let runOnEveryCore: ParallelWork = { count, work in
    let threads = Swift.min(count, Swift.max(1, ProcessInfo.processInfo.activeProcessorCount))
    let finished = DispatchSemaphore(value: 0)
    for first in 0..<threads {
        DetachedThread.start(named: "herald-restore") {
            for index in stride(from: first, to: count, by: threads) { work(index) }
            finished.signal()
        }
    }
    for _ in 0..<threads { finished.wait() }
}

/// The results of `work(0)` … `work(count - 1)`, in order: run all at once on `parallel`, or
/// one after another without it. The first error thrown is rethrown once every run is done.
func runEach<Output: Sendable>(
    _ count: Int, on parallel: ParallelWork?, _ work: @escaping @Sendable (Int) throws -> Output
) throws -> [Output] {
    let runner = parallel ?? { count, work in
        for index in 0..<count { work(index) }
    }
    let results = Mutex([Result<Output, any Error>?](repeating: nil, count: count))
    runner(count) { index in
        let result = Result { try work(index) }
        results.withLock { $0[index] = result }
    }
    return try results.withLock { $0 }.map { result in
        guard let result else { preconditionFailure("A parallel runner returned before every run was done.") }
        return try result.get()
    }
}

/// One piece of the state a snapshot keeps, in a section of its own: the piece's name,
/// and its bytes in whatever form suits it.
protocol SnapshotSection: Sendable {
    /// Unique among ``SnapshotPayload/sections``; also, for the pieces it had, the piece's
    /// member in format version 1.
    static var name: String { get }

    /// The piece's member in `heraldctl inspect-snapshot --json`: its `name`, unless a
    /// section that replaced another keeps the old one's member.
    static var inspectionMember: String { get }

    /// The format version that first wrote this section. The format version a snapshot
    /// is written in is the highest of its sections', so a heraldd that predates a piece
    /// refuses a snapshot holding it as of a newer format (rather than lose the piece),
    /// and a snapshot older than a piece lacks its section and restores it empty.
    static var since: UInt32 { get }

    /// The format version that no longer has this section (nil: every version since
    /// `since`): a retired section is read from snapshots of the versions before, and
    /// never written. Its piece lives on in a newer section; the retired one restores
    /// what the old versions kept into the state for the newer piece to take over
    /// (``HeraldState/finishRestore()`` runs after every section).
    static var retiredIn: UInt32? { get }

    /// Whether a snapshot of format `version` has this section.
    static func isIn(version: UInt32) -> Bool

    /// Whether the section holds part of the store (interactions, notifications): at start
    /// it restores after heraldd begins answering (``StoreSections``). Restored into a state
    /// of its own, it must need no other section.
    static var isStore: Bool { get }

    /// Appends the piece of `state` to `bytes`.
    static func write(_ state: HeraldState, to bytes: inout [UInt8], parallel: ParallelWork?) throws

    /// Appends the piece of `state` to `pieces`: by default to the piece being written; a
    /// section of record chunks hands each over as a piece of its own (``PayloadPieces``).
    static func write(_ state: HeraldState, to pieces: inout PayloadPieces, parallel: ParallelWork?) throws

    /// Restores the piece from `range` of `file` (a whole snapshot file) into `state`,
    /// which holds the sections before this one.
    static func restore(from file: [UInt8], range: Range<Int>, into state: inout HeraldState) throws(SnapshotFileError)

    /// The piece as a person reads it, for `heraldctl inspect-snapshot --json`.
    static func inspection(of state: HeraldState) -> JSONValue
}

extension SnapshotSection {
    static func write(_ state: HeraldState, to pieces: inout PayloadPieces, parallel: ParallelWork?) throws {
        try write(state, to: &pieces.tail, parallel: parallel)
    }

    static var retiredIn: UInt32? { nil }

    static var inspectionMember: String { name }

    static var isStore: Bool { false }

    static func isIn(version: UInt32) -> Bool {
        since <= version && retiredIn.map { version < $0 } ?? true
    }
}

/// A piece small enough to write as one JSON text: its records (`Records/`), written and
/// read by Herald's own JSON writer and parser, by member names this module fixes, and the
/// two conversions through `HeraldState`'s snapshot API. Dates are written as seconds since
/// 2001-01-01, so they come back exactly; members in alphabetical order, so that equal
/// states are written equally (and as Foundation's encoder wrote format 4 before).
protocol JSONSnapshotSection: SnapshotSection {
    static func json(of state: HeraldState, _ style: RecordStyle) -> JSONValue

    /// Throws ``damaged(_:)`` where the records are not what the rules could have made, and
    /// ``undecodable(_:)`` (through ``reading(_:)``) where they are not records at all.
    static func restore(_ json: JSONValue, into state: inout HeraldState) throws(SnapshotFileError)
}

extension JSONSnapshotSection {
    static func write(_ state: HeraldState, to bytes: inout [UInt8], parallel: ParallelWork?) throws {
        json(of: state, .snapshot).write(to: &bytes)
    }

    static func restore(from file: [UInt8], range: Range<Int>, into state: inout HeraldState) throws(SnapshotFileError) {
        try restore(json: file[range], at: range.lowerBound, into: &state)
    }

    /// Restores the piece from its JSON, which starts at file byte `offset`.
    static func restore(json: ArraySlice<UInt8>, at offset: Int, into state: inout HeraldState) throws(SnapshotFileError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(json, maxDepth: sectionMaximumDepth)
        } catch {
            throw SnapshotFileError(
                .undecodable,
                "The checksums hold but the state does not decode: the \(name) section at file byte \(offset) is not JSON: \(error)"
            )
        }
        try restore(value, into: &state)
    }

    static func inspection(of state: HeraldState) -> JSONValue {
        json(of: state, .inspection)
    }

    /// What `read` makes of the section's JSON; its ``RecordDamage`` as the section's.
    static func reading<T>(_ read: () throws(RecordDamage) -> T) throws(SnapshotFileError) -> T {
        do {
            return try read()
        } catch {
            throw undecodable(error)
        }
    }

    static func undecodable(_ damage: RecordDamage) -> SnapshotFileError {
        SnapshotFileError(.undecodable, "The checksums hold but the state does not decode: the \(name) section is not its records: \(damage.description)")
    }

    static func damaged(_ reason: String) -> SnapshotFileError {
        SnapshotFileError(.undecodable, "The checksums hold but the state does not decode: the \(name) section \(reason)")
    }
}
