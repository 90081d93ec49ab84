import HeraldCore
import HeraldProcessIdentity
import HeraldServer
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What the system writes about a process's app, read as xdg-desktop-portal reads it.
@Suite("App evidence")
struct AppEvidenceTests {
    @Test("A .flatpak-info names its app in [Application]; a runtime's in [Runtime]")
    func flatpakInfo() {
        let app = "[Application]\nname=org.example.chat\nruntime=runtime/org.gnome.Platform/x86_64/47\n\n[Instance]\ninstance-id=1\n"
        #expect(AppEvidence.flatpakApp(fromInfo: app) == "org.example.chat")
        #expect(AppEvidence.flatpakApp(fromInfo: "# made by flatpak\r\n[Application]\r\nname = org.example.Chat_2\r\n") == "org.example.Chat_2")
        #expect(AppEvidence.flatpakApp(fromInfo: "[Runtime]\nname=org.gnome.Platform\n") == "org.gnome.Platform")
        // The name of another group, no group, or an id Flatpak would refuse: no app.
        #expect(AppEvidence.flatpakApp(fromInfo: "[Instance]\nname=org.example.chat\n") == nil)
        #expect(AppEvidence.flatpakApp(fromInfo: "name=org.example.chat\n") == nil)
        for id in ["chat", "org.example", "org.example.", "org.1example.chat", "org.example.chat-app", "org.ex ample.chat", "org..chat"] {
            #expect(AppEvidence.flatpakApp(fromInfo: "[Application]\nname=\(id)\n") == nil, "\(id)")
        }
        #expect(AppEvidence.flatpakApp(fromInfo: "[Application\nname=org.example.chat\n") == nil)
    }

    @Test("An enforced Snap profile names snap.<name>; complain mode, other labels and unconfined do not")
    func snapLabel() {
        #expect(AppEvidence.snapApp(fromAppArmorLabel: "snap.chat.chat (enforce)\n") == "snap.chat")
        #expect(AppEvidence.snapApp(fromAppArmorLabel: "snap.chat-app.daemon (enforce)") == "snap.chat-app")
        #expect(AppEvidence.snapApp(fromAppArmorLabel: "snap.chat.hook.configure (enforce)") == "snap.chat")
        #expect(AppEvidence.snapApp(fromAppArmorLabel: "snap.chat.chat (complain)") == nil)
        #expect(AppEvidence.snapApp(fromAppArmorLabel: "unconfined") == nil)
        #expect(AppEvidence.snapApp(fromAppArmorLabel: "/usr/bin/man (enforce)") == nil)
        #expect(AppEvidence.snapApp(fromAppArmorLabel: "snap.Chat.chat (enforce)") == nil)
    }

    @Test("Units named by the Desktop Environments convention name their app")
    func unitNames() {
        let cases: [(String, String?)] = [
            ("app-gnome-org.example.chat-12345.scope", "org.example.chat"),
            ("app-org.example.chat-12345.scope", "org.example.chat"),
            ("app-kde-org.example.chat@a1b2c3.service", "org.example.chat"),
            ("app-org.example.chat@a1b2c3.service", "org.example.chat"),
            ("app-gnome-org.example.chat.service", "org.example.chat"),
            ("app-flatpak-org.example.chat-4242.scope", "org.example.chat"),
            ("app-gnome-firefox-4242.scope", "firefox"),
            // systemd escapes a "-" inside the id.
            ("app-gnome-org.example.chat\\x2dbeta-1.scope", "org.example.chat-beta"),
            ("snap.chat.chat-7c2e3f1a-0d5e-4c51-9a3b-3c1a2b4d5e6f.scope", "snap.chat"),
            ("snap.chat.daemon.service", "snap.chat"),
            // Not an app's unit: a terminal's shell, a user service, a scope without its random part.
            ("vte-spawn-1b2c3d4e-5f6a-7b8c-9d0e-1f2a3b4c5d6e.scope", nil),
            ("herald-notify.service", nil),
            ("app-org.example.chat.scope", nil),
            ("app-gnome-org.example-chat-x-1.scope", nil),
            ("app-gnome-org.example.chat\\x2-1.scope", nil),
            ("app--1.scope", nil),
            ("session-3.scope", nil),
            ("app.slice", nil),
        ]
        for (unit, app) in cases {
            #expect(AppEvidence.unitApp(fromUnit: unit) == app, "\(unit)")
        }
    }

    @Test("The innermost unit of the unified hierarchy (or name=systemd) is the process's")
    func cgroupFile() {
        let unified = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.example.chat-4242.scope\n"
        #expect(AppEvidence.unitApp(fromCgroup: unified) == "org.example.chat")
        let nested = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-org.example.chat@x1.service/worker\n"
        #expect(AppEvidence.unitApp(fromCgroup: nested) == "org.example.chat")
        let legacy = "12:pids:/\n1:name=systemd:/user.slice/user-1000.slice/user@1000.service/app.slice/app-kde-org.example.chat-7.scope\n"
        #expect(AppEvidence.unitApp(fromCgroup: legacy) == "org.example.chat")
        // The user's own manager is a unit too, but no app's.
        #expect(AppEvidence.unitApp(fromCgroup: "0::/user.slice/user-1000.slice/user@1000.service/init.scope\n") == nil)
        #expect(AppEvidence.unitApp(fromCgroup: "0::/\n") == nil)
        #expect(AppEvidence.unitApp(fromCgroup: "") == nil)
    }

    @Test("A root or .flatpak-info on FUSE or overlay is not read; a later mount hides an earlier one")
    func mountinfo() {
        let tmpfsRoot = """
            400 399 0:60 / / rw,nosuid,nodev,relatime - tmpfs tmpfs rw,mode=755
            401 400 8:1 /usr /usr ro,nosuid,nodev,relatime shared:1 - ext4 /dev/sda1 rw
            402 400 0:61 / /.flatpak-info ro,nosuid,nodev,relatime - tmpfs tmpfs rw
            """
        #expect(AppEvidence.rootIsSafeToRead(mountinfo: tmpfsRoot))
        #expect(!AppEvidence.rootIsSafeToRead(mountinfo: tmpfsRoot + "\n403 400 0:62 / /.flatpak-info ro - fuse.sshfs host:/x rw"))
        #expect(!AppEvidence.rootIsSafeToRead(mountinfo: tmpfsRoot + "\n404 399 0:63 / / rw - fuse portal rw"))
        #expect(!AppEvidence.rootIsSafeToRead(mountinfo: "400 399 0:60 / / rw - overlay overlay rw,lowerdir=/a"))
        #expect(!AppEvidence.rootIsSafeToRead(mountinfo: ""))
    }

    @Test("A process that exited is unconfirmed, never the person; this test process is the person")
    func pidReads() throws {
        #expect(ProcessIdentity.app(pidfd: nil, pid: getpid()) == .unconfined)
        var pid: pid_t = 0
        var arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/usr/bin/true"), nil]
        defer { arguments.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/usr/bin/true", nil, nil, &arguments, environ) == 0)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        #expect(ProcessIdentity.app(pidfd: nil, pid: pid) == .unconfirmed)
    }
}
