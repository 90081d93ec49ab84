import HeraldCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What reading a process's app found.
package enum ProcessApp: Sendable, Hashable {
    /// Verified as this app.
    case verified(AppIdentity)
    /// No app: an unconfined process, the person (or /proc not readable to the reader).
    case unconfined
    /// The process exited, or its pid changed hands, before the reads were confirmed:
    /// it is refused rather than served as the person.
    case unconfirmed
}

/// The app of a process, read from what the kernel and the sandbox set up around it
/// (``AppEvidence``), never from what it sends: heraldd reads its socket peers so, and
/// herald-notify's gateway the senders on the session bus.
///
/// Sources, strongest first: a Snap's AppArmor label (`/proc/PID/attr/current`), a
/// Flatpak's `/.flatpak-info` (`/proc/PID/root/.flatpak-info`), the systemd unit a desktop
/// launched the app into (`/proc/PID/cgroup`). The pid is pinned by a pidfd where there is
/// one; else its start time is checked around the reads.
package enum ProcessIdentity {
    /// Linux's O_PATH, which Glibc exports only with _GNU_SOURCE: the magic link followed,
    /// nothing in the peer's file system opened.
    private static let oPath: Int32 = 0o10_000_000

    /// The app of the process `pid` (pinned by `pidfd` when there is one).
    package static func app(pidfd: Int32?, pid: Int32) -> ProcessApp {
        var pid = pid
        if let pidfd {
            // The pidfd's own pid: -1 once the process exited, 0 outside heraldd's pid namespace.
            guard let pinned = pidOfPIDFD(pidfd), pinned >= 0 else { return .unconfirmed }
            pid = pinned
        }
        guard pid > 0 else { return .unconfined }
        let process = open("/proc/\(pid)", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard process >= 0 else {
            let failure = errno
            // Gone, unless /proc hides other uids' processes from heraldd (ProtectProc=invisible):
            // then there is no evidence to read, as before identities.
            let hidden = pidfd.map(isAlive) ?? (access("/proc/1", F_OK) != 0)
            return failure == ENOENT && !hidden ? .unconfirmed : .unconfined
        }
        defer { close(process) }
        let startTime = pidfd == nil ? Self.startTime(process) : nil
        let found = evidence(process)
        if let pidfd {
            guard isAlive(pidfd) else { return .unconfirmed }
        } else {
            guard let startTime, Self.startTime(process) == startTime else { return .unconfirmed }
        }
        return found.map(ProcessApp.verified) ?? .unconfined
    }

    /// The strongest evidence of `/proc/PID` (an open directory).
    private static func evidence(_ process: Int32) -> AppIdentity? {
        // Reading a label costs a millisecond under load where no LSM answers: only with AppArmor.
        if isAppArmorEnabled {
            for name in ["attr/apparmor/current", "attr/current"] {
                if let label = readText(process, name, limit: 4096), let id = AppEvidence.snapApp(fromAppArmorLabel: label) {
                    return AppIdentity(id: id, source: .snap)
                }
            }
        }
        if let id = flatpakApp(process) {
            return AppIdentity(id: id, source: .flatpak)
        }
        if let cgroup = readText(process, "cgroup", limit: 8192), let id = AppEvidence.unitApp(fromCgroup: cgroup) {
            return AppIdentity(id: id, source: .systemdUnit)
        }
        return nil
    }

    /// The app of the `/.flatpak-info` at the process's root, when heraldd may look there
    /// (the peer's uid, or root) and the file systems on the way cannot stall the read.
    private static func flatpakApp(_ process: Int32) -> String? {
        // A peer in heraldd's own mount namespace has heraldd's root, where only root could
        // have put a .flatpak-info; and mountinfo is the costly read, so the host's skip it.
        guard let namespace = mountNamespace(process), namespace != ownMountNamespace else { return nil }
        guard let mounts = readText(process, "mountinfo", limit: 256 * 1024), AppEvidence.rootIsSafeToRead(mountinfo: mounts) else {
            return nil
        }
        let root = openat(process, "root", Self.oPath | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { return nil }
        defer { close(root) }
        let info = openat(root, ".flatpak-info", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard info >= 0 else { return nil }
        defer { close(info) }
        var status = stat()
        guard fstat(info, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return readAll(info, limit: 64 * 1024).flatMap { String(validating: $0, as: UTF8.self) }.flatMap(AppEvidence.flatpakApp(fromInfo:))
    }

    /// Whether AppArmor confines processes on this host, read once.
    private static let isAppArmorEnabled =
        readText(AT_FDCWD, "/sys/module/apparmor/parameters/enabled", limit: 16)?.hasPrefix("Y") ?? false

    /// heraldd's own mount namespace, read once.
    private static let ownMountNamespace = mountNamespace(AT_FDCWD, "/proc/self")

    /// The mount namespace `ns/mnt` names (`mnt:[4026531841]`); nil where heraldd may not
    /// look (another uid's process, without the right to ptrace it).
    private static func mountNamespace(_ directory: Int32, _ path: String = ".") -> String? {
        var target = [CChar](repeating: 0, count: 64)
        let count = readlinkat(directory, path + "/ns/mnt", &target, target.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: target.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A pidfd's pid, from `/proc/self/fdinfo`.
    private static func pidOfPIDFD(_ pidfd: Int32) -> Int32? {
        guard let text = readText(AT_FDCWD, "/proc/self/fdinfo/\(pidfd)", limit: 4096) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("Pid:") {
            return Int32(String(line.dropFirst(4).filter { $0 != " " && $0 != "\t" }))
        }
        return nil
    }

    /// Whether the process a pidfd refers to still runs: a pidfd polls readable once it exits.
    private static func isAlive(_ pidfd: Int32) -> Bool {
        var entry = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 0
    }

    /// Field 22 of `/proc/PID/stat`, the process's start time in clock ticks.
    private static func startTime(_ process: Int32) -> Substring? {
        guard let text = readText(process, "stat", limit: 4096), let end = text.lastIndex(of: ")") else { return nil }
        // After the command's ")": the state is field 3, so the start time is the 20th here.
        let fields = text[text.index(after: end)...].split(separator: " ")
        return fields.count > 19 ? fields[19] : nil
    }

    /// The command name of the process `pid` (`/proc/PID/comm`: at most 15 bytes, set by
    /// the process itself), for a person to recognise it by; nil once it exited.
    package static func commandName(pid: Int32) -> String? {
        let process = open("/proc/\(pid)", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard process >= 0 else { return nil }
        defer { close(process) }
        guard let text = readText(process, "comm", limit: 64) else { return nil }
        let name = text.hasSuffix("\n") ? String(text.dropLast()) : text
        return name.isEmpty ? nil : name
    }

    private static func readText(_ directory: Int32, _ name: String, limit: Int) -> String? {
        let fd = openat(directory, name, O_RDONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return readAll(fd, limit: limit).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// All of a file's bytes, or nil when it has more than `limit`: read in pieces that
    /// double from 4 KiB, so a small file (most are) costs a small buffer.
    private static func readAll(_ fd: Int32, limit: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: Swift.min(4096, limit + 1))
        var count = 0
        while true {
            if count == bytes.count {
                guard bytes.count <= limit else { return nil }
                bytes.append(contentsOf: repeatElement(0, count: Swift.min(bytes.count, limit + 1 - bytes.count)))
            }
            let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return nil }
            if got == 0 { break }
            count += got
        }
        return Array(bytes.prefix(count))
    }
}
