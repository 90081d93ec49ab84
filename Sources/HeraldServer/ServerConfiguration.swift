import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a server listens and what it allows.
package struct ServerConfiguration: Sendable {
    /// Where connections come from.
    package enum Listening: Sendable, Hashable {
        /// A listening socket handed over by systemd: serve it, bind nothing.
        case activated(fileDescriptor: Int32)
        /// Bind this path, then apply this mode to the socket file.
        case path(String, mode: mode_t)
    }

    package var listening: Listening
    package var limits: RequestLimits
    package var administratorPolicy: AdministratorPolicy
    /// Exit after this many seconds with no client connected and no Focus change, summary
    /// or snooze end due within as many; 0 never.
    package var exitIdleAfter: Double
    /// How long shutdown waits for connections to finish the request they are sending.
    package var drainTimeout: Double
    /// Event loop threads; by default one per core.
    package var threads: Int
    /// The backlog to listen with when heraldd binds its socket itself (`--listen-backlog`),
    /// and under socket activation when the handed socket's own cannot be read. Linux caps
    /// it at `net.core.somaxconn` (4096 by default).
    package var listenBacklog: Int32 = 4096
    /// The most connections accepted in one wake-up of the listening socket.
    package var acceptBatch: UInt = 64
    /// Holds each connection's answers until the changes made before them are in the
    /// change log; nil without one (`--durability snapshot`).
    package var answerGate: AnswerGate?

    package init(
        listening: Listening,
        limits: RequestLimits = RequestLimits(),
        administratorPolicy: AdministratorPolicy = AdministratorPolicy(),
        exitIdleAfter: Double = 0,
        drainTimeout: Double = 5,
        threads: Int = System.coreCount
    ) {
        self.listening = listening
        self.limits = limits
        self.administratorPolicy = administratorPolicy
        self.exitIdleAfter = exitIdleAfter
        self.drainTimeout = drainTimeout
        self.threads = threads
    }
}
