import Foundation

/// herald-sync's log: a line per event on standard error, which systemd hands to the
/// journal. Focus names, hosts and errors only; herald-sync never sees a notification.
enum SyncLog {
    static func info(_ line: String) {
        FileHandle.standardError.write(Data("herald-sync: \(line)\n".utf8))
    }
}
