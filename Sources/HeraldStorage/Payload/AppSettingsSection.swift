import HeraldCore
import HeraldProtocol

/// Each (uid, app)'s Focus authorization and capabilities, for the apps someone decided
/// about.
enum AppSettingsSection: JSONSnapshotSection {
    static let name = "settings"
    static let since: UInt32 = 2

    struct Setting: Codable {
        var uid: UInt32
        var app: String
        var authorization: AuthorizationStatus
        var capabilities: Capabilities
    }

    static func form(of state: HeraldState) -> [Setting] {
        state.storedAppSettings.map {
            Setting(uid: $0.uid, app: $0.app, authorization: $0.authorization, capabilities: $0.capabilities)
        }
    }

    static func restore(_ form: [Setting], into state: inout HeraldState) throws(SnapshotFileError) {
        let settings = form.map {
            HeraldState.StoredAppSetting(uid: $0.uid, app: $0.app, authorization: $0.authorization, capabilities: $0.capabilities)
        }
        guard state.restoreAppSettings(settings) else {
            throw damaged("has settings of a (uid, app) twice.")
        }
    }
}
