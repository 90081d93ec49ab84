import HeraldBus

/// The bubble for events heraldd did not send this presenter (`events-skipped`): a burst
/// (snoozes ending together, an undo of hundreds, a large summary) brought more than it
/// took in time.
extension NotificationMapping {
    /// "12 notifications were not shown as they came", quiet: they are in the person's list,
    /// decided and kept as any other; only their bubbles were not made. `count` is the
    /// alerts skipped since the last such bubble was closed (silenced and quiet ones would
    /// not have been bubbles: they are not counted).
    package func skippedBubble(count: Int, uid: UInt32) -> Bubble? {
        guard count > 0 else { return nil }
        let title = count == 1 ? "1 notification was not shown as it came" : "\(count) notifications were not shown as they came"
        let whereToLook = "They are in your notification list: heraldctl notifications list"
        return Bubble(
            key: .skipped(uid: uid),
            arguments: NotifyArguments(
                appName: "Herald",
                summary: capabilities.body ? title : "\(title) — \(whereToLook)",
                body: capabilities.body ? whereToLook : "",
                hints: [("urgency", .byte(0)), ("suppress-sound", .boolean(true))]
            )
        )
    }
}
