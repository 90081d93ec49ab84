import HeraldBus

/// A well-known name herald-notify serves on the person's bus once the bus gives it.
///
/// Asked for in the bus's queue and never taken from its owner: a desktop shell that owns
/// it keeps it, and when an owner that does leave goes (a notification server started
/// before Herald, another Herald's gateway), the bus hands the name over, with no restart
/// of Herald's. What serves it is installed then, once.
final class QueuedName {
    let name: String
    private let bus: SessionBus
    /// Whether this connection owns the name now.
    private(set) var isOwned = false
    /// Whether ``serve`` ran: only the first time the bus gives the name.
    private var served = false
    /// Installs what serves the name (its handlers, its matches), and says so.
    var serve: () throws(BusError) -> Void = {}
    /// Serving failed when the bus gave the name after herald-notify's start: herald-notify
    /// ends, and its unit starts it again, rather than own a name it does not answer.
    var failed: (BusError) -> Void = { _ in }

    init(_ name: String, on bus: SessionBus) {
        self.name = name
        self.bus = bus
    }

    /// Asks for the name: nil when this connection owns it now (and ``serve`` ran), else
    /// its owner (``SessionBus/ownerDescription(of:)``), behind whom it waits in the queue.
    func claim() throws(BusError) -> String? {
        // Before the request: the bus may give the name between its answer and the next call.
        try bus.onOwnership(of: name) { [unowned self] owned in ownershipChanged(owned) }
        switch try bus.requestName(name, queueing: true) {
        case .owned:
            isOwned = true
            served = true
            try serve()
            return nil
        case .queued(let owner), .ownedBy(let owner):
            return owner
        }
    }

    /// `NameAcquired` (true) or `NameLost` (false). The bus sends `NameAcquired` for a name
    /// it granted at once too: one owned already is passed over.
    private func ownershipChanged(_ owned: Bool) {
        guard owned != isOwned else { return }
        isOwned = owned
        guard owned else {
            let owner = bus.ownerDescription(of: name) ?? "nobody"
            return Log.info(
                "herald-notify no longer owns \(name) on the session bus (\(owner) does now): calls to it go there, not to Herald, "
                    + "until the bus gives it back"
            )
        }
        guard !served else { return Log.info("the bus gave \(name) back to herald-notify: serving it again") }
        served = true
        do {
            try serve()
        } catch {
            Log.info("cannot serve \(name), which the bus gave herald-notify: \(error)")
            failed(error)
        }
    }
}
