import Foundation
import Testing

/// Runs one test of this test binary again, in a child process, for tests that need a
/// process of their own: file descriptors from 3 up, and an environment set as systemd
/// sets it.
///
/// The child test is enabled only when `HERALD_TEST_CHILD` names its role; it writes
/// what it observed as `key=value` lines to the file `HERALD_TEST_CHILD_RESULT`, and the
/// parent test checks those.
enum TestChild {
    static let roleVariable = "HERALD_TEST_CHILD"
    static let resultVariable = "HERALD_TEST_CHILD_RESULT"

    /// Whether this process was started to play `role`.
    static func plays(_ role: String) -> Bool {
        ProcessInfo.processInfo.environment[roleVariable] == role
    }

    /// Records an observation in the child; the parent reads it with ``run(test:role:launcher:environment:)``.
    static func report(_ values: KeyValuePairs<String, String>) throws {
        let path = try #require(ProcessInfo.processInfo.environment[resultVariable])
        let text = values.map { "\($0.key)=\($0.value)\n" }.joined()
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Starts this test binary running only `test` as `role`, optionally through `launcher`
    /// (a command that ends by executing its arguments, like systemd-socket-activate),
    /// and waits for it. `beforeWaiting` runs once the child was started.
    static func run(
        test: String,
        role: String,
        launcher: [String] = [],
        environment: [String: String] = [:],
        beforeWaiting: () throws -> Void = {}
    ) throws -> (status: Int32, observed: [String: String], output: String) {
        let result = FileManager.default.temporaryDirectory
            .appendingPathComponent("herald-child-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: result) }
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let command = launcher + [testBinary, "--testing-library", "swift-testing", "--filter", test]

        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var childEnvironment = ProcessInfo.processInfo.environment
        for name in ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] {
            childEnvironment[name] = nil
        }
        childEnvironment.merge(environment, uniquingKeysWith: { _, new in new })
        childEnvironment[roleVariable] = role
        childEnvironment[resultVariable] = result
        process.environment = childEnvironment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        try beforeWaiting()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()

        let text = (try? String(contentsOfFile: result, encoding: .utf8)) ?? ""
        var observed: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            observed[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return (process.terminationStatus, observed, String(decoding: data, as: UTF8.self))
    }
}
