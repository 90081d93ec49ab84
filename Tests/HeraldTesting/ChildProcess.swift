import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A child process started with `posix_spawn` and reaped with `waitpid`.
///
/// Tests start many processes side by side; Foundation's `Process` was seen here leaving
/// children unreaped while `waitUntilExit` waited forever, so tests use this instead.
/// Standard input, output and error are files (or /dev/null), never pipes, so that no
/// other test's child can hold a pipe open by inheriting it.
package final class ChildProcess: @unchecked Sendable {
    package let pid: pid_t
    private var status: Int32?
    private let lock = NSLock()

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package init(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        standardInput: String = "/dev/null",
        standardOutput: String = "/dev/null",
        standardError: String = "/dev/null",
        inheriting descriptors: [Int32: Int32] = [:]
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_APPEND, 0)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_APPEND, 0)
        // Each (child's number: parent's descriptor), as systemd hands a listening socket
        // over as fd 3; dup2 leaves the child's copy open across exec.
        for (target, source) in descriptors.sorted(by: { $0.key < $1.key }) {
            posix_spawn_file_actions_adddup2(&actions, source, target)
        }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else {
            throw Failure(description: "posix_spawn \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = waitForExit(timeout: 10)
        }
    }

    package var isRunning: Bool {
        lock.withLock { reap(blocking: false) == nil }
    }

    package func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// The exit code (or 128 + the signal that ended it), or nil if it is still running
    /// after `timeout` seconds.
    package func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let status = lock.withLock({ reap(blocking: false) }) { return status }
            guard Date() < deadline else { return nil }
            usleep(10_000)
        }
    }

    /// Reaps the child if it has exited; call with the lock held.
    private func reap(blocking: Bool) -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
        guard result == pid else { return nil }
        let signal = raw & 0x7f
        status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        return status
    }
}
