import ArgumentParser
import FoundationEssentials
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension FocusCommand {
    /// `heraldctl focus hold NAME [--reason TEXT] -- COMMAND [ARGS…]` (`hold-focus`): keeps a
    /// Focus on while a command runs, as `systemd-inhibit` keeps a lock.
    ///
    /// The hold lives as long as heraldctl's connection, so it ends however heraldctl ends —
    /// the command exiting, or heraldctl killed, even with SIGKILL. HeraldClient opens the
    /// connection close-on-exec: the command never holds it past heraldctl.
    struct Hold: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Keep a Focus on while a command runs.",
            discussion: """
                heraldctl focus hold Presenting -- obs: takes a hold of the Focus NAME (defined already), runs the \
                command with heraldctl's own input and output, passes SIGINT, SIGTERM and SIGHUP on to it, and exits \
                with its status (128+N when a signal N ended it). The hold ends when heraldctl exits, or is killed: \
                the Focus ends as `focus off` would end it (one "While NAME was on" digest), unless another hold \
                still keeps one on. Holds stack; the latest decides. Turning a Focus on or off by hand while held \
                wins: the hold stays listed in `focus show` as overridden, and its end changes nothing.
                """
        )
        @OptionGroup var client: ClientOptions
        @Argument(help: "The Focus to keep on, such as Presenting.") var name: String
        @Option(help: "Why, for `focus show` and the journal (at most 256 bytes).") var reason: String?
        @Argument(parsing: .postTerminator, help: ArgumentHelp("The command to run, after --.", valueName: "command"))
        var command: [String] = []

        func validate() throws {
            guard !command.isEmpty else {
                throw ValidationError("Give the command to run after --: heraldctl focus hold \(name) -- COMMAND [ARGS…].")
            }
        }

        func run() throws {
            let connection = try client.connect()
            var params: [String: JSONValue] = ["name": name.json]
            if let reason { params["reason"] = reason.json }
            let result: JSONValue
            do {
                result = try connection.call("hold-focus", params: params)
            } catch {
                throw error.naming(["/name": "NAME", "/reason": "--reason"])
            }
            if client.json {
                Output.printJSON(result)
            }
            let status = try CommandRun(command).wait()
            // The connection closes as heraldctl exits: the hold ends there.
            withExtendedLifetime(connection) {}
            throw ExitCode(status)
        }
    }
}

/// A command run with heraldctl's standard input, output and error, and the signals sent
/// to heraldctl alone (`kill`, systemd stopping it) passed on to it.
struct CommandRun {
    private let pid: pid_t
    private static let forwarded: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    /// Linux's SI_KERNEL: a signal the kernel sent, as the terminal's are.
    private static let sentByTheKernel: Int32 = 0x80

    /// Starts `arguments` (the program found on `PATH`), or fails as a shell would: 127
    /// when it cannot be found, 126 when it cannot be run.
    init(_ arguments: [String]) throws(ExitCode) {
        // Blocked from before the spawn, so none is lost (a SIGCHLD not blocked is
        // discarded); the child starts with them unblocked.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for signal in Self.forwarded + [SIGCHLD] { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var child: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let error = posix_spawnp(&child, arguments[0], nil, &attributes, argv, environ)
        guard error == 0 else {
            pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
            StandardStreams.writeError("heraldctl: cannot run \(arguments[0]): \(String(cString: strerror(error)))\n")
            throw ExitCode(error == ENOENT ? 127 : 126)
        }
        pid = child
    }

    /// Waits for the command, passing on each signal heraldctl receives meanwhile; its
    /// exit status, or 128+N when the signal N ended it.
    func wait() -> Int32 {
        var waited = sigset_t()
        sigemptyset(&waited)
        for signal in Self.forwarded + [SIGCHLD] { sigaddset(&waited, signal) }
        while true {
            var status: Int32 = 0
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid {
                if status & 0x7f == 0 { return (status >> 8) & 0xff }
                return 128 + (status & 0x7f)
            }
            if done < 0, errno != EINTR { return 1 }
            // Sleeps until a signal: SIGCHLD when the command ends, or one to pass on. One
            // the terminal sent (Ctrl-C, a hangup) reached the command too, in heraldctl's
            // process group: passed on again, it would count twice.
            var info = siginfo_t()
            let signal = sigwaitinfo(&waited, &info)
            if signal > 0, signal != SIGCHLD, info.si_code != Self.sentByTheKernel {
                kill(pid, signal)
            }
        }
    }
}
