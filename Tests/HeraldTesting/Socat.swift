import Foundation

/// Runs `socat - UNIX-CONNECT:path` with `input` on its standard input, as a person at a
/// shell would, and returns what it printed.
package func socat(_ input: String, to socketPath: String, timeout: Double = 20) throws -> String {
    try runCapturingOutput("/usr/bin/socat", ["-t", "\(timeout)", "-", "UNIX-CONNECT:\(socketPath)"], input: input)
}

/// Runs a program with `input` as its standard input and returns its standard output
/// once it has exited (at most `timeout` seconds; then it is killed).
package func runCapturingOutput(
    _ executable: String, _ arguments: [String], input: String, timeout: Double = 60
) throws
    -> String
{
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-run-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let inputPath = folder.appendingPathComponent("stdin").path
    let outputPath = folder.appendingPathComponent("stdout").path
    try Data(input.utf8).write(to: URL(fileURLWithPath: inputPath))
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)

    let child = try ChildProcess(executable, arguments, standardInput: inputPath, standardOutput: outputPath)
    guard child.waitForExit(timeout: timeout) != nil else {
        child.signal(SIGKILL)
        throw ChildProcess.Failure(description: "\(executable) did not exit within \(timeout) s")
    }
    return try String(contentsOfFile: outputPath, encoding: .utf8)
}
