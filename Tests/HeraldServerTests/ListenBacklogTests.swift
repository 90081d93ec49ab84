import Foundation
import HeraldServer
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The backlog heraldd reads from a handed socket before NIO listens on it again.
@Suite("Listen backlog")
struct ListenBacklogTests {
    @Test("The backlog read from the kernel is the one the socket listens with, and listen() changes it")
    func readBack() throws {
        let held = try HeldSocket(backlog: 333)
        #expect(ListenBacklog.current(of: held.fd) == 333)
        try ListenBacklog.apply(1234, to: held.fd)
        #expect(ListenBacklog.current(of: held.fd) == 1234)
        #expect(try listenBacklog(ofSocketAt: held.socketPath) == 1234)
    }

    @Test("A descriptor that is not a listening socket has no backlog")
    func notListening() {
        #expect(ListenBacklog.current(of: -1) == nil)
        let fd = open("/dev/null", O_RDONLY)
        defer { close(fd) }
        #expect(ListenBacklog.current(of: fd) == nil)
    }
}
