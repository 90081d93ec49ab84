import HeraldBus

/// What a presenter shows for one Herald notification or one summary: the `Notify`
/// arguments but for the two things only the presenter knows — the id of the bubble it
/// replaces, and where an inline image was written.
package struct Bubble: Sendable, Hashable {
    /// What the bubble stands for: the same key again replaces the bubble.
    package enum Key: Sendable, Hashable {
        case notification(NotificationKey)
        /// Each summary replaces the previous summary's bubble.
        case summary
        /// The prompt for (uid, app)'s Focus authorization request: one per waiting request.
        case authorization(uid: UInt32, app: String)
        /// A Focus digest of a uid: each replaces the uid's last.
        case focusDigest(uid: UInt32)
        /// What a uid's presenter was not sent in a burst: each replaces the uid's last.
        case skipped(uid: UInt32)
    }

    package var key: Key
    /// `Notify`'s arguments with `replacesID` 0 and no `image-path` hint.
    package var arguments: NotifyArguments
    package var image: ImageSource?
    /// Each `Notify` action key, to the Herald action identifier it answers with (for a
    /// prompt, to the `authorizationStatus` it answers with).
    package var actionKeys: [String: String]
    /// Whether closing the bubble by hand answers `dismiss` (the category's `customDismissAction`).
    package var answersDismissal: Bool
    /// The thread whose last bubble this one replaces (`replaces_id`), set only where the
    /// server stacks no thread by a hint of its own.
    package var thread: String?
    /// The Herald action identifier of the text-input action offered as an inline reply
    /// (`inline-reply`), whose `NotificationReplied` text answers as `userText`.
    package var inlineReplyAction: String?
    /// The `Notify` action key of "Snooze 1 hour", which herald-notify answers with
    /// `snooze-notification`; nil where it is not offered.
    package var snoozeKey: String?
    /// The conversation "Mute conversation 1 hour" mutes (action key
    /// `herald-mute-conversation`), which herald-notify answers with `set-conversation`;
    /// nil where it is not offered.
    package var muteConversation: String?
    /// What the person's prompt asks for the text of the action under
    /// ``NotificationMapping/promptReplyKey`` (herald-notify's `--reply-command`).
    package var replyPrompt: String?

    package init(
        key: Key, arguments: NotifyArguments, image: ImageSource? = nil, actionKeys: [String: String] = [:], answersDismissal: Bool = false,
        thread: String? = nil, inlineReplyAction: String? = nil, snoozeKey: String? = nil, replyPrompt: String? = nil
    ) {
        self.key = key
        self.arguments = arguments
        self.image = image
        self.actionKeys = actionKeys
        self.answersDismissal = answersDismissal
        self.thread = thread
        self.inlineReplyAction = inlineReplyAction
        self.snoozeKey = snoozeKey
        self.replyPrompt = replyPrompt
    }

    /// The same bubble, offering "Mute conversation 1 hour" for `conversation`.
    package func offeringMute(of conversation: String?) -> Bubble {
        var bubble = self
        bubble.muteConversation = conversation
        return bubble
    }

    /// The final `Notify` arguments: replacing bubble `replacesID` (0 for none), showing
    /// the image at `imagePath` (the file URL's path, or the file an inline image was written to).
    package func arguments(replacesID: UInt32, imagePath: String?) -> NotifyArguments {
        var arguments = arguments
        arguments.replacesID = replacesID
        if let imagePath { arguments.hints.append((key: "image-path", value: .string(imagePath))) }
        return arguments
    }
}
