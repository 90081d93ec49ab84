import HeraldBus

/// How an app's Focus authorization request becomes a prompt: Apple's "Allow / Don't Allow"
/// alert as a bubble, whose action answers with the person's own `set-focus-authorization`.
extension NotificationMapping {
    package static let authorizationTitle = "Share your Focus status?"
    /// The Notify action keys of the prompt, to the `authorizationStatus` each answers with.
    package static let allowActionKey = "allow"
    package static let denyActionKey = "deny"
    static let authorizationActionKeys = [allowActionKey: "authorized", denyActionKey: "denied"]

    /// The prompt for `request`: "Allow" and "Don't Allow" where the server has actions,
    /// else the heraldctl command that answers; normal urgency, no sound, never expiring
    /// and resident (it stays until the request is answered, here or anywhere else).
    package func authorizationBubble(for request: AuthorizationRequest) -> Bubble {
        let escape = capabilities.bodyMarkup ? BodyMarkup.escape : { $0 }
        var lines = ["\(escape(request.app)) wants to know when you have a Focus on."]
        var actions: [String] = []
        var actionKeys: [String: String] = [:]
        if capabilities.actions {
            actions = [Self.allowActionKey, "Allow", Self.denyActionKey, "Don't Allow"]
            actionKeys = Self.authorizationActionKeys
        } else {
            lines.append(escape("Answer with: heraldctl authorization allow \(request.app) (or deny)"))
        }
        var summary = Self.authorizationTitle
        if !capabilities.body { summary += " (\(request.app))" }
        return Bubble(
            key: .authorization(uid: request.uid, app: request.app),
            arguments: NotifyArguments(
                appName: "Herald",
                summary: summary,
                body: lines.joined(separator: "\n"),
                actions: actions,
                hints: [("urgency", .byte(1)), ("suppress-sound", .boolean(true)), ("resident", .boolean(true))],
                expireTimeout: 0
            ),
            actionKeys: actionKeys
        )
    }
}
