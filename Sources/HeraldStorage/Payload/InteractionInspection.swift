import HeraldCore
import HeraldProtocol

/// An interaction as `heraldctl inspect-snapshot --json` shows it: its members by name, the
/// intent's beside its `type`. The snapshot itself keeps interactions in bytes
/// (``InteractionRecordLayout``).
enum InteractionInspection {
    static func json(_ interaction: Interaction) -> JSONValue {
        var members = RecordMembers(.inspection, capacity: 5)
        members.add("date", interaction.date)
        members.add("direction", interaction.direction)
        members.add("groupIdentifier", interaction.groupIdentifier)
        members.add("identifier", interaction.identifier)
        members.add("intent", intent(interaction.intent))
        return members.value
    }

    private static func intent(_ intent: Intent) -> JSONValue {
        var members = RecordMembers(.inspection, capacity: 10)
        switch intent {
        case .sendMessage(let message):
            members.add("content", message.content)
            members.add("conversationIdentifier", message.conversationIdentifier)
            members.add("donationMetadata", message.donationMetadata.map { DonationMetadataRecord.json($0, .inspection) })
            members.add("groupImage", message.groupImage.map { ImageRecord.json($0, .inspection) })
            members.add("outgoingMessageType", message.outgoingMessageType)
            members.add("recipients", message.recipients, PersonRecord.json)
            members.add("sender", message.sender.map { PersonRecord.json($0, .inspection) })
            members.add("serviceName", message.serviceName)
            members.add("speakableGroupName", message.speakableGroupName)
        case .startCall(let call):
            members.add("audioRoute", call.audioRoute)
            members.add("callCapability", call.callCapability)
            members.addClientJSON("callRecordToCallBack", call.callRecordToCallBack)
            members.add("contacts", call.contacts, PersonRecord.json)
            members.add("destinationType", call.destinationType)
            members.add("groupImage", call.groupImage.map { ImageRecord.json($0, .inspection) })
        }
        members.add("type", intent.type)
        return members.value
    }
}
