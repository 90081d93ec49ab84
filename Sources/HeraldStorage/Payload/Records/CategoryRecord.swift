import HeraldCore
import HeraldProtocol

/// A notification category and its actions as the snapshot keeps them.
enum CategoryRecord {
    static func json(_ category: NotificationCategory, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 4)
        members.add("actions", category.actions, actionJSON)
        members.add("hiddenPreviewsBodyPlaceholder", category.hiddenPreviewsBodyPlaceholder)
        members.add("identifier", category.identifier)
        members.add("options", category.options)
        return members.value
    }

    static func read(_ record: RecordReader) throws(RecordDamage) -> NotificationCategory {
        NotificationCategory(
            identifier: try record.string("identifier"),
            actions: try record.records("actions", readAction),
            options: try record.optionalCases("options"),
            hiddenPreviewsBodyPlaceholder: try record.optionalString("hiddenPreviewsBodyPlaceholder")
        )
    }

    static func actionJSON(_ action: NotificationAction, _ style: RecordStyle) -> JSONValue {
        var members = RecordMembers(style, capacity: 5)
        members.add("icon", action.icon.map { icon in
            var members = RecordMembers(style, capacity: 2)
            members.add("systemImageName", icon.systemImageName)
            members.add("templateImageName", icon.templateImageName)
            return members.value
        })
        members.add("identifier", action.identifier)
        members.add("options", action.options)
        members.add("textInput", action.textInput.map { input in
            var members = RecordMembers(style, capacity: 2)
            members.add("buttonTitle", input.buttonTitle)
            members.add("placeholder", input.placeholder)
            return members.value
        })
        members.add("title", action.title)
        return members.value
    }

    static func readAction(_ record: RecordReader) throws(RecordDamage) -> NotificationAction {
        NotificationAction(
            identifier: try record.string("identifier"),
            title: try record.string("title"),
            options: try record.optionalCases("options"),
            icon: try record.optionalRecord("icon") { icon throws(RecordDamage) in
                NotificationActionIcon(systemImageName: try icon.optionalString("systemImageName"), templateImageName: try icon.optionalString("templateImageName"))
            },
            textInput: try record.optionalRecord("textInput") { input throws(RecordDamage) in
                NotificationTextInput(buttonTitle: try input.string("buttonTitle"), placeholder: try input.string("placeholder"))
            }
        )
    }
}
