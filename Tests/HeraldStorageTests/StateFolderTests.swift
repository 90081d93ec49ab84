import Testing

@testable import HeraldStorage

@Suite("StateFolder")
struct StateFolderTests {
    @Test("STATE_DIRECTORY wins, then XDG_STATE_HOME, then ~/.local/state")
    func defaults() {
        #expect(StateFolder.defaultPath(environment: ["STATE_DIRECTORY": "/var/lib/herald", "XDG_STATE_HOME": "/x"]) == "/var/lib/herald")
        #expect(StateFolder.defaultPath(environment: ["XDG_STATE_HOME": "/home/a/.state", "HOME": "/home/a"]) == "/home/a/.state/herald")
        #expect(StateFolder.defaultPath(environment: ["HOME": "/home/a"]) == "/home/a/.local/state/herald")
    }
}
