import Glibc

/// herald-sync's log: a line per event on standard error, which systemd hands to the
/// journal. Focus names, hosts and errors only; herald-sync never sees a notification.
enum SyncLog {
    static func info(_ line: String) {
        var text = "herald-sync: \(line)\n"
        text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }
}
