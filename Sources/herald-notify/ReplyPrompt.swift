import Foundation
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The person's own prompt for a reply's text (`--reply-command`), where the notification
/// server has no inline reply (dunst, mako): `rofi -dmenu`, `wofi --dmenu`, `zenity
/// --entry`. One at a time, run with `sh -c` and read through a pipe the loop polls, so
/// that bubbles keep coming while the person types.
///
/// The command gets the prompt's text in `HERALD_REPLY_PROMPT` (the action's placeholder,
/// else its title) and the app in `HERALD_REPLY_APP`, and nothing on its standard input.
/// Its first line of output, at most ``maximumBytes``, is the reply; no output or a
/// non-zero exit (the person pressed Escape) sends nothing.
final class ReplyPrompt {
    let command: String
    /// What is being answered while a prompt is open, with its output so far.
    private var open: (pid: pid_t, fd: Int32, answer: (String) -> Void, output: [UInt8])?
    /// Prompts whose output ended before they exited: reaped as the loop goes round.
    private var exiting: [pid_t] = []
    static let maximumBytes = 4096

    init(command: String) {
        self.command = command
    }

    /// The pipe to poll while a prompt is open.
    var fileDescriptor: Int32? { open?.fd }

    /// Opens the prompt for `prompt` of `app`'s notification; `answer` gets the text the
    /// person typed. False (and logged) while another is open, or when it cannot start.
    @discardableResult
    func ask(_ prompt: String, app: String, answer: @escaping (String) -> Void) -> Bool {
        reap()
        guard open == nil else {
            Log.info("a reply prompt is open already: not asking for \(app)'s reply")
            return false
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            Log.info("cannot open a pipe for the reply prompt: \(String(cString: strerror(errno)))")
            return false
        }
        // Only the prompt's standard output is its: no other program started later inherits the pipe.
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        // herald-notify blocks SIGTERM and SIGINT for its signalfd and ignores SIGPIPE:
        // the prompt gets neither.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var environment = Self.environment().filter { !$0.hasPrefix("HERALD_REPLY_") }
        environment += ["HERALD_REPLY_PROMPT=\(prompt)", "HERALD_REPLY_APP=\(app)"]
        let arguments = ["sh", "-c", command]
        var pid: pid_t = 0
        let spawned = Self.withCStrings(arguments) { argv in
            Self.withCStrings(environment) { envp in posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp) }
        }
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            Log.info("cannot run the reply command: \(String(cString: strerror(spawned)))")
            return false
        }
        _ = fcntl(pipeEnds[0], F_SETFL, fcntl(pipeEnds[0], F_GETFL) | O_NONBLOCK)
        open = (pid, pipeEnds[0], answer, [])
        return true
    }

    /// Reads what the prompt wrote; at its end, answers with the first line.
    func read() {
        guard var prompt = open else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(prompt.fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN {
                open = prompt
                return
            }
            guard count > 0 else { break }
            // Past the bound the rest is read and let go, so that the prompt never blocks.
            prompt.output += chunk[..<min(count, max(0, Self.maximumBytes - prompt.output.count))]
        }
        close(prompt.fd)
        open = nil
        var status: Int32 = 0
        let exited = waitpid(prompt.pid, &status, WNOHANG) == prompt.pid
        if !exited { exiting.append(prompt.pid) }
        let failed = exited && !((status & 0x7f) == 0 && (status >> 8) & 0xff == 0)
        let line = String(decoding: prompt.output.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let text = line.trimmingBlanks()
        guard !failed, !text.isEmpty else { return Log.info("the reply prompt was closed without a reply") }
        prompt.answer(text)
    }

    /// Collects prompts that have exited since their output ended.
    private func reap() {
        exiting.removeAll { pid in
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) != 0
        }
    }

    private static func environment() -> [String] {
        var strings: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            strings.append(String(cString: pointer))
            entry += 1
        }
        return strings
    }

    /// `body` with `strings` as a NULL-terminated C array.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}
