import Foundation
import HeraldBus

extension BusMonitor {
    /// Whether a `Notify` call whose body is `body` goes by on the monitored bus (within
    /// 20 s): one sent to a stopped renderer too, which answers nothing. Made with the
    /// rule `type='method_call',interface='org.freedesktop.Notifications',member='Notify'`.
    func sawNotify(body: String) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            guard let message = try? next(timeout: .seconds(1)), message.member == "Notify" else { continue }
            _ = try? message.readString()
            _ = try? message.readUInt32()
            _ = try? message.readString()
            _ = try? message.readString()
            if (try? message.readString()) == body { return true }
        }
        return false
    }

    /// A monitor of the `Notify` calls on the bus at `address`.
    static func notifyCalls(onBus address: String) throws -> BusMonitor {
        try BusMonitor(address: address, rules: ["type='method_call',interface='org.freedesktop.Notifications',member='Notify'"])
    }
}
