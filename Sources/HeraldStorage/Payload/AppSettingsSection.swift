import HeraldCore
import HeraldProtocol

/// Each (uid, app)'s Focus authorization and capabilities, for the apps someone decided
/// about: an array of `{app, authorization, capabilities: {communication, critical,
/// timeSensitive}, uid}`.
enum AppSettingsSection: JSONSnapshotSection {
    static let name = "settings"
    static let since: UInt32 = 2

    static func json(of state: HeraldState, _ style: RecordStyle) -> JSONValue {
        .array(
            state.storedAppSettings.map { setting in
                var capabilities = RecordMembers(style, capacity: 3)
                capabilities.add("communication", setting.capabilities.communication)
                capabilities.add("critical", setting.capabilities.critical)
                capabilities.add("timeSensitive", setting.capabilities.timeSensitive)
                var members = RecordMembers(style, capacity: 4)
                members.add("app", setting.app)
                members.add("authorization", setting.authorization)
                members.add("capabilities", capabilities.value)
                members.add("uid", setting.uid)
                return members.value
            }
        )
    }

    static func restore(_ json: JSONValue, into state: inout HeraldState) throws(SnapshotFileError) {
        let settings = try reading { () throws(RecordDamage) in
            try RecordReader.records(in: json) { setting throws(RecordDamage) in
                HeraldState.StoredAppSetting(
                    uid: try setting.integer("uid"),
                    app: try setting.string("app"),
                    authorization: try setting.enumCase("authorization"),
                    capabilities: try setting.record("capabilities") { capabilities throws(RecordDamage) in
                        Capabilities(
                            communication: try capabilities.bool("communication"),
                            timeSensitive: try capabilities.bool("timeSensitive"),
                            critical: try capabilities.bool("critical")
                        )
                    }
                )
            }
        }
        guard state.restoreAppSettings(settings) else {
            throw damaged("has settings of a (uid, app) twice.")
        }
    }
}
