import ArgumentParser
import FoundationEssentials
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `heraldctl`: Herald from the shell, for people and for scripts.
///
/// Each subcommand speaks to heraldd over its socket, as any client does. Exit codes: 0
/// success, 1 a JSON-RPC error, 2 a usage error, 69 heraldd unreachable (`EX_UNAVAILABLE`).
@main
struct HeraldCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heraldctl",
        abstract: "Talk to heraldd, Herald's notification daemon, from the shell.",
        discussion: """
            The socket is --socket, else $HERALD_SOCKET, else the first that exists of \
            $RUNTIME_DIRECTORY/herald.sock, $XDG_RUNTIME_DIR/herald/herald.sock and \
            /run/herald/herald.sock (heraldd's own search). `make run` serves on \
            .run/herald.sock in the source folder: pass --socket .run/herald.sock.

            Exit status: 0 success, 1 a JSON-RPC error, 2 a usage error, 69 heraldd unreachable.
            """,
        version: HeraldVersion.string,
        subcommands: [
            StatusCommand.self, DonateCommand.self, NotifyCommand.self, NotificationsCommand.self, FocusCommand.self, SummaryCommand.self,
            AuthorizationCommand.self, CapabilitiesCommand.self, SuggestCommand.self, DeleteCommand.self,
            RequestFocusCommand.self, SnapshotCommand.self, WatchCommand.self, CallCommand.self, MethodsCommand.self,
            InspectSnapshotCommand.self, CategoriesCommand.self, RespondCommand.self, ConversationsCommand.self, CooldownCommand.self, SyncCommand.self,
        ]
    )

    /// Parses and runs, mapping argument-parser's usage errors to exit status 2.
    static func main() {
        do {
            var command = try parseAsRoot(ClientOptionOrder.subcommandFirst(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch let failure as CtlFailure {
            failure.report()
            Glibc.exit(failure.status.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success || code == .failure || error is ExitCode {
                exit(withError: error)
            }
            // A usage error (argument-parser says 64): the message, then status 2.
            StandardStreams.writeError(fullMessage(for: error) + "\n")
            Glibc.exit(CtlStatus.usage.rawValue)
        }
    }
}
