import HeraldCore
import HeraldProtocol
import Testing

/// Who may call what: a verified app speaks only as itself and is neither the person nor
/// an administrator; the person keeps everything.
@Suite("Caller access")
struct CallerAccessTests {
    static let person = Caller(uid: 1000, gid: 1000, pid: 10, isAdministrator: false)
    static let root = Caller(uid: 0, gid: 0, pid: 11, isAdministrator: true)
    static let chat = Caller(uid: 1000, gid: 1000, pid: 12, isAdministrator: false, app: AppIdentity(id: "org.example.chat", source: .flatpak))
    static let rootChat = Caller(uid: 0, gid: 0, pid: 13, isAdministrator: true, app: AppIdentity(id: "org.example.chat", source: .snap))

    private func refusal(_ caller: Caller, _ access: MethodAccess, require: Bool = false) -> RuleError? {
        do {
            try caller.checkAccess(to: "m", access, requireAppIdentity: require)
            return nil
        } catch {
            return error
        }
    }

    @Test("Each access against each caller")
    func matrix() {
        // (caller, access, require-app-identity) → allowed
        let cases: [(Caller, MethodAccess, Bool, Bool)] = [
            (Self.person, .anyone, false, true), (Self.person, .app, false, true), (Self.person, .person, false, true),
            (Self.person, .administrator, false, false), (Self.person, .app, true, false), (Self.person, .person, true, true),
            (Self.root, .administrator, false, true), (Self.root, .app, true, false),
            (Self.chat, .anyone, false, true), (Self.chat, .app, false, true), (Self.chat, .app, true, true),
            (Self.chat, .person, false, false), (Self.chat, .administrator, false, false),
            (Self.rootChat, .administrator, false, false), (Self.rootChat, .person, false, false),
        ]
        for (caller, access, require, allowed) in cases {
            let error = refusal(caller, access, require: require)
            #expect((error == nil) == allowed, "\(caller.app?.id ?? "person") uid \(caller.uid) \(access) require=\(require)")
            if let error {
                #expect(error.code == .permissionDenied && error.path == [] && !error.reason.isEmpty)
            }
        }
    }

    @Test("A verified app is never an administrator, whatever its uid")
    func verifiedIsNoAdministrator() {
        #expect(!Self.rootChat.isAdministrator)
        #expect(Self.root.isAdministrator)
        #expect(refusal(Self.rootChat, .administrator)?.reason.contains("org.example.chat") == true)
    }

    @Test("A verified app names only itself; 1006 at /app names both ids; the person names any")
    func namedApp() throws {
        try Self.chat.checkNamedApp("org.example.chat")
        try Self.person.checkNamedApp("org.example.pager")
        try Self.person.checkNamedApp(nil)
        let other = #expect(throws: RuleError.self) { try Self.chat.checkNamedApp("org.example.pager") }
        #expect(other?.code == .permissionDenied && other?.path == ["app"])
        #expect(other?.reason.contains("org.example.chat") == true && other?.reason.contains("org.example.pager") == true)
        let every = #expect(throws: RuleError.self) { try Self.chat.checkNamedApp(nil) }
        #expect(every?.path == ["app"])
    }
}
