import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A desktop session of its own for a test: a real session bus (`dbus-daemon --session`
/// on a private socket, with no activatable services), a real X server (`Xvfb`), and a
/// real notification server (`dunst`), read back with `dunstctl`.
package final class DesktopSession: @unchecked Sendable {
    package let folder: URL
    package let busAddress: String
    /// The renderer's private bus, where dunst runs while herald-notify's gateway owns
    /// `org.freedesktop.Notifications` on the session bus; nil for a session without one.
    package let rendererBusAddress: String?
    package let display: String
    private let bus: ChildProcess
    private var rendererBus: ChildProcess?
    private let xserver: ChildProcess
    private var dunst: ChildProcess?

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    static let tools = ["/usr/bin/dbus-daemon", "/usr/bin/Xvfb", "/usr/bin/dunst", "/usr/bin/dunstctl", "/usr/bin/busctl", "/usr/bin/dbus-send"]

    /// Whether the tools are installed (`make test` installs them: dbus, xvfb, dunst).
    package static var available: Bool { tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }
    package static let unavailableReason = "no dbus-daemon, Xvfb or dunst here (Debian packages dbus, xvfb, dunst): the desktop tests are skipped"

    /// Starts the bus and the X server, and dunst unless `server` is false. `dmenu` is a shell
    /// script for dunst's context menu, run by `/bin/sh` rather than exec'd: another test's
    /// fork may briefly hold the just-written file open, and exec would fail (ETXTBSY).
    /// `displayLimit` is how many bubbles dunst shows at once (0: all); the rest wait in
    /// its queue, which a flood needs: dunst draws every bubble shown for each new one.
    package init(server: Bool = true, dmenu: String? = nil, rendererBus: Bool = false, displayLimit: Int = 0) throws {
        self.displayLimit = displayLimit
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-desktop-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("runtime"), withIntermediateDirectories: true)
        chmod(folder.appendingPathComponent("runtime").path, 0o700)
        let socket = folder.appendingPathComponent("bus").path
        busAddress = "unix:path=\(socket)"
        let config = folder.appendingPathComponent("session.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>\(busAddress)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
          <!-- A real session bus's limits (/usr/share/dbus-1/session.conf): a 50 MB message passes. -->
          <limit name="max_incoming_bytes">1000000000</limit>
          <limit name="max_outgoing_bytes">1000000000</limit>
          <limit name="max_message_size">1000000000</limit>
          <limit name="max_replies_per_connection">50000</limit>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        let log = folder.appendingPathComponent("session.log").path
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        bus = try ChildProcess("/usr/bin/dbus-daemon", ["--config-file=\(config.path)", "--nofork"], standardError: log)
        if rendererBus {
            let rendererSocket = folder.appendingPathComponent("renderer-bus").path
            rendererBusAddress = "unix:path=\(rendererSocket)"
            let rendererConfig = folder.appendingPathComponent("renderer.conf")
            try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: busAddress, with: rendererBusAddress!)
                .write(to: rendererConfig, atomically: true, encoding: .utf8)
            self.rendererBus = try ChildProcess("/usr/bin/dbus-daemon", ["--config-file=\(rendererConfig.path)", "--nofork"], standardError: log)
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, !FileManager.default.fileExists(atPath: rendererSocket) { usleep(20_000) }
        } else {
            rendererBusAddress = nil
        }

        let displayFile = folder.appendingPathComponent("display").path
        _ = FileManager.default.createFile(atPath: displayFile, contents: nil)
        xserver = try ChildProcess(
            "/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "800x600x24", "-nolisten", "tcp"],
            standardOutput: displayFile, standardError: log
        )
        var number = ""
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            number = ((try? String(contentsOfFile: displayFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if !number.isEmpty, FileManager.default.fileExists(atPath: socket) { break }
            guard bus.isRunning, xserver.isRunning else { break }
            usleep(20_000)
        }
        display = ":\(number)"
        guard !number.isEmpty, FileManager.default.fileExists(atPath: socket) else {
            throw Failure(description: "the session bus or Xvfb did not start: \(self.log)")
        }
        if let dmenu {
            dmenuScript = dmenu
        }
        if server { try startServer() }
    }

    deinit {
        dunst?.signal(SIGKILL)
        _ = dunst?.waitForExit(timeout: 10)
        for process in [xserver, bus] + [rendererBus].compactMap({ $0 }) {
            process.signal(SIGKILL)
            _ = process.waitForExit(timeout: 10)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// `$XDG_RUNTIME_DIR` for the session's programs: a 0700 folder of its own.
    package var runtimeDirectory: String { folder.appendingPathComponent("runtime").path }

    /// What a program of this session runs with.
    package var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        environment["DISPLAY"] = display
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        // herald-notify's presented-until file stays in the session's folder, not the tester's home.
        environment["XDG_STATE_HOME"] = folder.appendingPathComponent("state").path
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        return environment
    }

    package var log: String { (try? String(contentsOfFile: folder.appendingPathComponent("session.log").path, encoding: .utf8)) ?? "" }

    private var dmenuScript: String?
    private let displayLimit: Int

    /// Starts dunst (notifications never expire; any number shown, or `displayLimit`; history kept; each
    /// bubble's `message` begins with `urgency=low|normal|critical`, which the history
    /// has no member for, or `desktop-entry=org.example.chat` for that `desktop-entry`
    /// hint, which it has none for either) and waits until it owns `org.freedesktop.Notifications`.
    package func startServer() throws {
        dunst = try launchDunst(onBus: rendererBusAddress ?? busAddress, log: "dunst.log")
    }

    /// Starts a second dunst, as the person would start one by hand, on the session bus
    /// itself (in a session with a renderer's bus, where the gateway serves), and waits until
    /// it owns `org.freedesktop.Notifications` there. The test ends it.
    package func startServerOnSessionBus() throws -> ChildProcess {
        try launchDunst(onBus: busAddress, log: "dunst-session-bus.log")
    }

    /// Runs dunst on the bus at `address`, its standard error in the session's folder under
    /// `log`, and waits until it owns `org.freedesktop.Notifications` there.
    private func launchDunst(onBus address: String, log name: String) throws -> ChildProcess {
        let log = folder.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        var dunstEnvironment = environment
        dunstEnvironment["DBUS_SESSION_BUS_ADDRESS"] = address
        let server = try ChildProcess("/usr/bin/dunst", ["-config", try writeDunstConfig()], environment: dunstEnvironment, standardError: log)
        guard wait(timeout: 30, until: { self.nameHasOwner(onBus: address) }) else {
            server.signal(SIGKILL)
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Failure(description: "dunst did not take org.freedesktop.Notifications on \(address): \(output)")
        }
        return server
    }

    /// Writes dunst's configuration (``startServer()``) and returns its path.
    private func writeDunstConfig() throws -> String {
        let config = folder.appendingPathComponent("dunstrc")
        try """
        [global]
            notification_limit = \(displayLimit)
            idle_threshold = 0
            sticky_history = yes
            history_length = 1000
            markup = full
            show_indicators = no
            dmenu = \(dmenuScript.map { "/bin/sh \($0)" } ?? "/bin/false")
        [urgency_low]
            timeout = 0
            format = "urgency=low %s|%b"
        [urgency_normal]
            timeout = 0
            format = "urgency=normal %s|%b"
        [urgency_critical]
            timeout = 0
            format = "urgency=critical %s|%b"
        [herald_desktop_entry]
            desktop_entry = "org.example.chat"
            format = "desktop-entry=org.example.chat %s|%b"
        """.write(to: config, atomically: true, encoding: .utf8)
        return config.path
    }

    /// Ends dunst (SIGKILL: a server that goes away), and waits until the name has no owner.
    package func stopServer() {
        dunst?.signal(SIGKILL)
        _ = dunst?.waitForExit(timeout: 10)
        dunst = nil
        _ = wait(timeout: 10) { !self.serverOwnsName }
    }

    /// Stops dunst where it is (SIGSTOP), as a renderer that hangs: what is sent to it waits
    /// in the bus, unanswered, until ``resumeServer()``.
    package func pauseServer() {
        dunst?.signal(SIGSTOP)
    }

    /// Lets a paused dunst go on (SIGCONT): it takes what waited, in order.
    package func resumeServer() {
        dunst?.signal(SIGCONT)
    }

    package var dunstLog: String { (try? String(contentsOfFile: folder.appendingPathComponent("dunst.log").path, encoding: .utf8)) ?? "" }

    /// Whether a program owns `org.freedesktop.Notifications` on the bus dunst runs on:
    /// the renderer's, where there is one, else the session bus.
    package var serverOwnsName: Bool { nameHasOwner(onBus: rendererBusAddress ?? busAddress) }

    /// Whether a program owns `org.freedesktop.Notifications` on the bus at `address`.
    package func nameHasOwner(onBus address: String) -> Bool {
        let output = run(
            "/usr/bin/dbus-send",
            ["--bus=\(address)", "--print-reply=literal", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
             "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.Notifications"]
        )
        return output.status == 0 && output.stdout.contains("true")
    }

    /// `dunstctl arguments…`: its exit status and standard output.
    @discardableResult
    package func dunstctl(_ arguments: [String]) -> (status: Int32?, stdout: String) {
        run("/usr/bin/dunstctl", arguments)
    }

    /// The bubbles on screen now (`dunstctl count displayed`).
    package var displayedCount: Int {
        Int(dunstctl(["count", "displayed"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// `dunstctl history`, newest first: each notification's members (`summary`, `body`,
    /// `appname`, `urgency`, `icon_path`, `id`, …) with their values, parsed with JSONSerialization.
    package func history() -> [[String: Any]] {
        let output = dunstctl(["history"]).stdout
        guard let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
            let data = object["data"] as? [[[String: Any]]], let entries = data.first
        else { return [] }
        return entries.map { entry in entry.mapValues { ($0 as? [String: Any])?["data"] ?? NSNull() } }
    }

    /// Closes every bubble on screen (`dunstctl close-all`), which moves them to the history.
    package func closeAll() {
        dunstctl(["close-all"])
    }

    /// Polls `condition` every 20 ms until it holds (true) or `timeout` seconds pass (false).
    package func wait(timeout: Double, until condition: () -> Bool) -> Bool {
        waitUntil(timeout: timeout, condition)
    }

    /// What dunst is doing, for a test whose renderer stopped answering: each thread's state
    /// and where it waits in the kernel (`/proc`), every thread's stack (gdb, where
    /// installed; a 20 s limit), and the end of its log.
    package func rendererDiagnosis() -> String {
        guard let pid = dunst?.pid else { return "no dunst was started" }
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var lines = tasks.sorted().map { task in
            let read = { (name: String) in (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/\(name)", encoding: .utf8)) ?? "?" }
            let state = read("stat").split(separator: ")").last?.split(separator: " ").first ?? "?"
            return "dunst (pid \(pid)) thread \(task): state \(state), waits in \(read("wchan"))"
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") {
            lines.append(run("/usr/bin/gdb", ["-p", "\(pid)", "-batch", "-ex", "thread apply all bt"]).stdout)
        }
        let log = (try? String(contentsOfFile: folder.appendingPathComponent("dunst.log").path, encoding: .utf8)) ?? ""
        lines.append("dunst's log, its end: \(log.suffix(2000))")
        return lines.joined(separator: "\n")
    }

    /// Runs a program of the session to its end (at most 20 seconds).
    package func run(_ executable: String, _ arguments: [String]) -> (status: Int32?, stdout: String) {
        let output = folder.appendingPathComponent("out-\(UUID().uuidString.prefix(8))").path
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        defer { unlink(output) }
        guard let child = try? ChildProcess(executable, arguments, environment: environment, standardOutput: output) else {
            return (nil, "")
        }
        let status = child.waitForExit(timeout: 20)
        if status == nil { child.signal(SIGKILL) }
        return (status, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }
}
