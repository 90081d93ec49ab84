import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs the real `heraldctl` built beside heraldd, and captures what it printed.
package enum Heraldctl {
    package struct Run: CustomStringConvertible {
        package var status: Int32?
        package var stdout: String
        package var stderr: String
        package var description: String { "status \(status.map(String.init) ?? "none")\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
        /// Each stdout line parsed with Foundation's JSONSerialization, an oracle independent of heraldctl's output code.
        package var jsonLines: [Any] {
            stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8), options: [.fragmentsAllowed]) }
        }
    }

    /// `heraldctl`, beside the heraldd the tests start.
    package static var binaryPath: String {
        URL(fileURLWithPath: HeraldProcess.binaryPath).deletingLastPathComponent().appendingPathComponent("heraldctl").path
    }

    /// Runs `heraldctl arguments…` to its end (at most `timeout` seconds), optionally
    /// through `prefix` (such as setpriv), with `input` on standard input.
    package static func run(
        _ arguments: [String],
        prefix: [String] = [],
        input: String = "",
        environment: [String: String] = [:],
        timeout: Double = 30
    ) throws -> Run {
        let child = try start(arguments, prefix: prefix, input: input, environment: environment)
        let status = child.process.waitForExit(timeout: timeout)
        if status == nil { child.process.signal(SIGKILL) }
        return child.finish(status: status)
    }

    /// A heraldctl still running (for `watch`): its output so far, and a way to stop it.
    package final class Running: @unchecked Sendable {
        package let process: ChildProcess
        let folder: URL

        init(process: ChildProcess, folder: URL) {
            self.process = process
            self.folder = folder
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        package var stdout: String { (try? String(contentsOf: folder.appendingPathComponent("stdout"), encoding: .utf8)) ?? "" }
        package var stderr: String { (try? String(contentsOf: folder.appendingPathComponent("stderr"), encoding: .utf8)) ?? "" }

        /// Waits until stdout holds `text` (at most `timeout` seconds).
        package func waitForOutput(containing text: String, timeout: Double = 20) -> Bool {
            waitUntil(timeout: timeout, interval: 0.01) { stdout.contains(text) }
        }

        package func finish(status: Int32?) -> Run {
            Run(status: status, stdout: stdout, stderr: stderr)
        }
    }

    package static func start(
        _ arguments: [String],
        prefix: [String] = [],
        input: String = "",
        environment: [String: String] = [:]
    ) throws -> Running {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heraldctl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let paths = ["stdin", "stdout", "stderr"].map { folder.appendingPathComponent($0).path }
        _ = FileManager.default.createFile(atPath: paths[0], contents: Data(input.utf8))
        _ = FileManager.default.createFile(atPath: paths[1], contents: nil)
        _ = FileManager.default.createFile(atPath: paths[2], contents: nil)
        // Readable by an unprivileged uid run through setpriv.
        for path in [folder.path] + paths { chmod(path, path == folder.path ? 0o777 : 0o666) }
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "HERALD_SOCKET")
        for (key, value) in environment { env[key] = value }
        let command = prefix.isEmpty ? [binaryPath] + arguments : prefix + [binaryPath] + arguments
        let process = try ChildProcess(
            command[0], Array(command.dropFirst()), environment: env,
            standardInput: paths[0], standardOutput: paths[1], standardError: paths[2]
        )
        return Running(process: process, folder: folder)
    }
}
