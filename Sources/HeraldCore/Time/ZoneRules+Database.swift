import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ZoneRules {
    /// The zone named `identifier` ("Europe/Berlin") in the system's tz database, the
    /// TZif files under `TZDIR` or else /usr/share/zoneinfo (Debian's `tzdata`); nil when
    /// the database has no such zone.
    package init?(identifier: String) {
        guard Self.isZoneName(identifier), let bytes = Self.read(Self.databaseFolder + "/" + identifier) else { return nil }
        self.init(identifier: identifier, tzif: bytes)
    }

    /// The system's zone, chosen as Foundation's `TimeZone.current` chooses it: the zone
    /// `TZ` names when the database has it, else /etc/localtime's, else UTC. Read once, at
    /// the first use.
    package static let current: ZoneRules = {
        if let name = getenv("TZ").map({ String(cString: $0) }), let zone = ZoneRules(identifier: name) {
            return zone
        }
        let localtime = "/etc/localtime"
        // Named as the zone /etc/localtime links to, as `timedatectl` sets it.
        var identifier = "localtime"
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: localtime),
            let range = target.firstRange(of: "zoneinfo/")
        {
            identifier = String(target[range.upperBound...])
        }
        if let bytes = read(localtime), let zone = ZoneRules(identifier: identifier, tzif: bytes) {
            return zone
        }
        return .utc
    }()

    private static var databaseFolder: String {
        getenv("TZDIR").map { String(cString: $0) } ?? "/usr/share/zoneinfo"
    }

    /// A relative path of names, none `.` or `..`: `TZ` is never read as a path outside the database.
    private static func isZoneName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("/") && !name.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }

    private static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
}
