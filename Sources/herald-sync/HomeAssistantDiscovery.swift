import HeraldProtocol

/// Home Assistant's MQTT discovery for the person's Focus: one `select` entity whose
/// options are "Off" and the person's Focuses (docs/sync.md, "Home Assistant").
///
/// Home Assistant reads the state from the Focus topic itself (`value_template`), and sets
/// it by publishing, retained, a Focus message of its own there (`command_template`, with
/// host `home-assistant` and its clock's time): herald-sync takes it as it takes another
/// host's change, so the Focus set in Home Assistant is set on every host, last writer
/// winning as ever.
struct HomeAssistantDiscovery {
    let configuration: SyncConfiguration
    /// The person's Focuses, by name.
    let focuses: [String]

    /// The option that turns the Focus off.
    static let off = "Off"

    /// `<discovery-prefix>/select/herald_<account>/focus/config`.
    var topic: String { "\(configuration.discoveryPrefix)/select/\(node)/focus/config" }

    private var node: String { "herald_\(configuration.account)" }

    var payload: [UInt8] {
        var account: [UInt8] = []
        JSONValue.string(configuration.account).write(to: &account)
        let command =
            #"{"focus":{% if value == '\#(Self.off)' %}null{% else %}{{ value | tojson }}{% endif %},"until":null,"cause":"manual","account":"#
            + String(decoding: account, as: UTF8.self)
            + #","host":"home-assistant","hlc":{"ms":{{ (now().timestamp() * 1000) | int }},"counter":0}}"#
        let object: JSONObject = [
            "name": "Focus",
            "unique_id": .string("\(node)_focus"),
            "object_id": .string("\(node)_focus"),
            "device": .object([
                "identifiers": .array([.string(node)]), "name": .string("Herald (\(configuration.account))"), "manufacturer": "Herald",
            ]),
            "options": .array(([Self.off] + focuses).map { .string($0) }),
            "state_topic": .string(configuration.focusTopic),
            "value_template": .string("{{ value_json.focus if value_json.focus else '\(Self.off)' }}"),
            "command_topic": .string(configuration.focusTopic),
            "command_template": .string(command),
            "retain": true,
            "qos": 1,
        ]
        var bytes: [UInt8] = []
        JSONValue.object(object).write(to: &bytes)
        return bytes
    }
}
