import FoundationEssentials
import HeraldProtocol

/// What `focus-changed` subscribers are told, read from a copy of the Focuses and the app
/// settings alone. A method that changes them hands this to the server to tell
/// subscribers after the lock: holding a copy of the whole state instead would make the
/// next request that writes copy the interactions and the notification lists.
package struct FocusView: Sendable {
    let focuses: FocusTable
    let settings: AppSettings
    let zone: ZoneRules

    /// The (uid, app)'s Focus authorization.
    package func authorizationStatus(uid: UInt32, app: String) -> AuthorizationStatus {
        settings.authorization(uid: uid, app: app)
    }

    /// What `(uid, app)` may know of `uid`'s Focus at `now`: nil unless that (uid, app)
    /// is authorized.
    package func focusStatus(uid: UInt32, app: String, now: Date) -> FocusStatus? {
        guard settings.authorization(uid: uid, app: app) == .authorized else { return nil }
        let active = focuses[uid].configuration(at: now, zone: zone)
        return FocusStatus(isFocused: active.map { $0.focuses(app: app) } ?? false)
    }
}

extension HeraldState {
    /// The Focuses and app settings as they are now, for telling subscribers.
    package var focusView: FocusView {
        FocusView(focuses: focuses, settings: settings, zone: zone)
    }
}
