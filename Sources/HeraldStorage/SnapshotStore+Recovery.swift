import FoundationEssentials
import HeraldCore
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What recovery found in the state folder.
package struct Recovery: Sendable {
    /// The state to start with: the newest good snapshot's, or empty.
    package var state: HeraldState
    /// The header of the snapshot loaded; nil when starting empty.
    package var header: SnapshotHeader?
    /// The file loaded, if any.
    package var path: String?
    /// Files renamed aside (their new paths), with the reason; the caller reports them.
    package var setAside: [(path: String, error: SnapshotFileError)]
    /// True when damaged or unsupported files were set aside and nothing replaced them:
    /// write a snapshot at once so that the next start finds a good one.
    package var needsSnapshot: Bool
    /// The highest generation the folder shows was ever begun — in `state.generation`, or
    /// in any snapshot's header, set-aside ones included — so that the next snapshot takes
    /// a number above it, not the number of a damaged file that `.previous` stood in for.
    package var highestGeneration: UInt64 = 0
    /// The loaded snapshot's interactions and notifications, when recovery was asked to
    /// leave them for later (`deferringStore`): `state` holds everything else.
    package var store: StoreSections?
}

/// Why heraldd refuses to start: data exists that it cannot load.
package struct RecoveryRefusal: Error, Sendable, CustomStringConvertible {
    package var description: String
}

extension SnapshotStore {
    /// Finds the state to start with: the newest snapshot whose checksums hold.
    ///
    /// `state.snapshot` is tried first, then `state.snapshot.previous`. A damaged one is
    /// renamed aside (`.damaged-<time>`), reported at error priority, and the next tried.
    /// When no good snapshot is left but files were there — or one is of a newer format
    /// than this build reads — it refuses (leaving every file where it is) unless
    /// `discardDamaged`, which sets them aside and starts empty.
    ///
    /// With `deferringStore`, the newest good snapshot's interactions and notifications are
    /// left in ``Recovery/store``, to restore after; damage found there then is the
    /// caller's to handle. In a file of format 6 or later they are not even read yet: only
    /// the sections before them, checked by their own checksum (``LeadingChecksumSection``);
    /// the store's restore reads the rest and checks the whole file's.
    package func recover(
        discardDamaged: Bool, configuration: CoreConfiguration = CoreConfiguration(), now: Date = Date(),
        deferringStore: Bool = false, logger: Logger
    ) throws -> Recovery {
        try prepareFolder()
        for stale in [temporaryPath, previousTemporaryPath] where access(stale, F_OK) == 0 {
            logger.notice("removing an unfinished snapshot write", metadata: ["path": "\(stale)"])
            unlink(stale)
        }

        let highest = highestGeneration()
        var problems: [(path: String, error: SnapshotFileError)] = []
        for path in [currentPath, previousPath] where access(path, F_OK) == 0 {
            let loaded: (SnapshotHeader, HeraldState, StoreSections?)
            do throws(SnapshotFileError) {
                loaded = try Self.load(path, configuration: configuration, deferringStore: deferringStore)
            } catch {
                guard error.isDamage || error.code == .unsupportedVersion else {
                    throw RecoveryRefusal(description: "heraldd cannot read \(path): \(error.reason)")
                }
                problems.append((path, error))
                continue
            }
            let (header, state, store) = loaded
            // A newer file than this one is of a format this build does not know: loading
            // the older one would quietly lose what the newer build wrote.
            if problems.contains(where: { !$0.error.isDamage }) && !discardDamaged {
                throw RecoveryRefusal(description: refusal(problems))
            }
            let aside = try setAside(problems, now: now)
            logger.info(
                "state restored",
                metadata: ["path": "\(path)", "generation": "\(header.generation)", "interactions": "\(header.interactions)"]
            )
            return Recovery(
                state: state,
                header: header,
                path: path,
                setAside: aside,
                needsSnapshot: !aside.isEmpty,
                highestGeneration: max(highest, header.generation),
                store: store
            )
        }
        if problems.isEmpty {
            return Recovery(state: HeraldState(), header: nil, path: nil, setAside: [], needsSnapshot: false, highestGeneration: highest)
        }
        guard discardDamaged else {
            throw RecoveryRefusal(description: refusal(problems))
        }
        let aside = try setAside(problems, now: now)
        return Recovery(state: HeraldState(), header: nil, path: nil, setAside: aside, needsSnapshot: true, highestGeneration: highest)
    }

    /// The snapshot at `path`, decoded. `deferringStore`: only as far as the store when its
    /// format allows (6 and later), the rest read by the store's restore; otherwise whole.
    private static func load(
        _ path: String, configuration: CoreConfiguration, deferringStore: Bool
    ) throws(SnapshotFileError) -> (SnapshotHeader, HeraldState, StoreSections?) {
        guard deferringStore else {
            let (header, state, _) = try SnapshotFile.decode(try readAll(path), configuration: configuration, deferringStore: false)
            return (header, state, nil)
        }
        let file = try OpenSnapshotFile(path: path)
        if let leading = try SnapshotFile.decodeLeading(file, configuration: configuration) { return leading }
        return try SnapshotFile.decode(try file.prefix(file.size), configuration: configuration, deferringStore: true)
    }

    /// The highest of `state.generation` and every readable header among the folder's
    /// `state.snapshot*` files.
    func highestGeneration() -> UInt64 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("state.snapshot") }.reduce(recordedGeneration() ?? 0) { highest, name in
            max(highest, Self.headerGeneration(folder + "/" + name) ?? 0)
        }
    }

    private func refusal(_ problems: [(path: String, error: SnapshotFileError)]) -> String {
        let each = problems.map { "\($0.path): \($0.error.reason)" }.joined(separator: "; ")
        return
            "heraldd refuses to start: the state folder holds snapshots it cannot load (\(each)). "
            + "Restore a good snapshot as \(currentPath), or start with --discard-damaged-state to set them aside and start empty."
    }

    /// Renames the snapshot at `path` to `<name>.damaged-<time>`, found damaged after
    /// recovery loaded it; the new path, or nil when it cannot be renamed.
    package func setAsideDamaged(_ path: String, now: Date) -> String? {
        try? setAside([(path, SnapshotFileError(.undecodable, "damaged"))], now: now).first?.path
    }

    /// Renames each problem file to `<name>.damaged-<time>` or `<name>.unsupported-<time>`.
    private func setAside(
        _ problems: [(path: String, error: SnapshotFileError)],
        now: Date
    ) throws -> [(path: String, error: SnapshotFileError)] {
        var moved: [(path: String, error: SnapshotFileError)] = []
        let stamp = Self.stamp(now)
        for problem in problems {
            let kind = problem.error.isDamage ? "damaged" : "unsupported"
            var target = "\(problem.path).\(kind)-\(stamp)"
            var suffix = 1
            while access(target, F_OK) == 0 {
                target = "\(problem.path).\(kind)-\(stamp)-\(suffix)"
                suffix += 1
            }
            guard rename(problem.path, target) == 0 else {
                throw RecoveryRefusal(description: "heraldd cannot set aside \(problem.path): \(Self.ioError("rename").reason)")
            }
            moved.append((target, problem.error))
        }
        return moved
    }

    /// `20250101T120000Z`: sorts by time, and has no colon.
    static func stamp(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}
