import Foundation
import HeraldProtocol

/// A client run as Flatpak runs an app: under bubblewrap (`bwrap`, Debian's bubblewrap,
/// what `flatpak run` uses) in new user and pid namespaces, with a `/.flatpak-info` naming
/// the app at the root of its own file system, and only the daemon's socket folder of the
/// host's files besides `/usr` and `/etc`.
package struct FlatpakSandbox {
    package let app: String
    /// The folder bound into the sandbox at the same path: the daemon's socket folder.
    package let socketFolder: String

    package init(app: String, socketFolder: String) {
        self.app = app
        self.socketFolder = socketFolder
    }

    /// The host's `/usr`, read-only, with a merged-/usr system's links: what socat needs.
    private static let systemFiles = [
        "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
    ]

    /// Whether bwrap is installed and may make a user namespace here.
    package static var isUsable: Bool {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap") else { return false }
        let probe = try? ChildProcess("/usr/bin/bwrap", ["--unshare-user", "--unshare-pid"] + systemFiles + ["/usr/bin/true"])
        return probe?.waitForExit(timeout: 30) == 0
    }

    /// Sends each request (one a line) from inside the sandbox through `socat`, and
    /// returns the responses in order, read by Foundation's parser.
    package func call(_ requests: [JSONValue], socket: String) throws -> [JSONValue] {
        let lines = requestLines(requests)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-flatpak-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let info = folder.appendingPathComponent("flatpak-info")
        try Data("[Application]\nname=\(app)\nruntime=runtime/org.example.Platform/x86_64/1\n\n[Instance]\ninstance-id=4242\n".utf8)
            .write(to: info)
        let output = try runCapturingOutput(
            "/usr/bin/bwrap",
            [
                "--unshare-user", "--unshare-pid", "--die-with-parent",
            ] + Self.systemFiles + [
                "--ro-bind", "/etc", "/etc", "--dev", "/dev", "--proc", "/proc",
                "--bind", socketFolder, socketFolder,
                "--ro-bind", info.path, "/.flatpak-info",
                "/usr/bin/socat", "-t", "10", "-", "UNIX-CONNECT:\(socket)",
            ],
            input: lines
        )
        return try output.split(separator: "\n").map { try IndependentJSON.parse(String($0)) }
    }

    /// Runs `executable` inside the sandbox with `folder` bound at the same path (a bus's
    /// socket folder), and returns its standard output and exit status.
    package func run(_ executable: String, _ arguments: [String], binding folder: String, environment: [String: String] = [:]) throws
        -> (status: Int32?, stdout: String)
    {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("herald-flatpak-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let info = work.appendingPathComponent("flatpak-info")
        try Data("[Application]\nname=\(app)\nruntime=runtime/org.example.Platform/x86_64/1\n\n[Instance]\ninstance-id=4242\n".utf8)
            .write(to: info)
        let output = work.appendingPathComponent("stdout").path
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let setenv = environment.sorted { $0.key < $1.key }.flatMap { ["--setenv", $0.key, $0.value] }
        let child = try ChildProcess(
            "/usr/bin/bwrap",
            ["--unshare-user", "--unshare-pid", "--die-with-parent"] + Self.systemFiles + [
                "--ro-bind", "/etc", "/etc", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
                "--bind", folder, folder,
                "--ro-bind", info.path, "/.flatpak-info",
            ] + setenv + [executable] + arguments,
            standardOutput: output
        )
        let status = child.waitForExit(timeout: 30)
        if status == nil { child.signal(SIGKILL) }
        return (status, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }
}
