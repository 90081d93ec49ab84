import HeraldBus
import HeraldDesktop

/// Showing apps' notifications directly while heraldd is away: on the renderer as the app
/// sent them, without Herald's Focus, the person told once per outage.
extension NotificationGateway {
    /// Shows a notification on the renderer as the app sent it: while heraldd cannot
    /// decide, nothing is lost. The person is told once per outage. Its `Notify` goes
    /// without waiting (``DirectBubbles``): a flood shown while heraldd is away never stops
    /// the gateway answering the person's bus.
    func showDirectly(_ id: UInt32) {
        guard let record = records[id] else { return }
        if !toldOfOutage {
            toldOfOutage = true
            Log.info("heraldd is not reachable: apps' notifications are shown directly, without Herald's Focus, until it is back")
            let notice = NotifyArguments(
                appName: "Herald", summary: "Herald is not running",
                body: "Notifications are shown as apps send them, without your Focus or summary, until it is back.",
                hints: [("urgency", .byte(1)), ("suppress-sound", .boolean(true))]
            )
            let notShown = { (error: BusError) in Log.info("the renderer did not show that Herald is not running: \(error)") }
            do {
                try renderer.notify(notice) { answer in if case .failure(let error) = answer { notShown(error) } }
            } catch {
                notShown(error)
            }
        }
        let n = record.notification
        direct.add(
            id,
            NotifyArguments(
                appName: n.appName, appIcon: n.appIcon, summary: n.summary, body: n.body, actions: n.actions,
                hints: n.hints.map { (key: $0.key, value: $0.value) }, expireTimeout: n.expireTimeout
            )
        )
        sendDirect()
    }

    /// Whether as many notifications wait to be shown directly as may: the loop takes no
    /// more calls from the person's bus until the renderer has taken some.
    var showingDirectlyIsFull: Bool { direct.isFull }

    /// Sends the `Notify` calls that may go now; each answer sends the next.
    private func sendDirect() {
        // Replacing its bubble of before, named by the renderer's answer to it.
        while let (sent, arguments) = direct.next(replacing: { records[$0]?.directID }) {
            do {
                let timeout = max(direct.lateAfter, DesktopNotifications.lateAnswerTimeout)
                try renderer.notify(arguments, timeout: timeout) { [unowned self] answer in
                    directAnswered(sent, app: arguments.appName, answer)
                    sendDirect()
                }
            } catch {
                directAnswered(sent, app: arguments.appName, .failure(error))
            }
        }
    }

    /// The renderer's answer to a `Notify`: its bubble's id is kept for the renderer's
    /// signals and the app's replacement, or the bubble closed when the app closed the
    /// notification meanwhile, or replaced it with another bubble (it was late). The bubble
    /// a newer `Notify` replaces in place is left to that one's answer.
    private func directAnswered(_ sent: DirectBubbles.Sent, app: String, _ answer: Result<UInt32, BusError>) {
        let closing = direct.answered(sent, bubble: try? answer.get())
        switch answer {
        case .success(let directID) where closing:
            closeBubble(directID)
        case .success(let directID):
            records.setDirectID(directID, of: sent.id)
        case .failure(let error):
            Log.info("the renderer did not take a notification of \(app): \(error)")
        }
    }

    /// Lets the notifications waiting behind a `Notify` the renderer leaves unanswered past
    /// its call timeout go; its answer is still taken when it comes.
    func sendPastLateAnswers() {
        let late = direct.markLate()
        guard late > 0 else { return }
        if !toldOfLateAnswers {
            toldOfLateAnswers = true
            Log.info(
                "the renderer has not answered \(late) Notify calls in \(direct.lateAfter): the notifications after them go on, "
                    + "and their answers are waited for up to \(DesktopNotifications.lateAnswerTimeout) so that their apps can still replace and close them"
            )
        }
        sendDirect()
    }

    /// Milliseconds until a direct `Notify` is late, for poll; -1 with none unanswered.
    var lateAnswerPollTimeoutMilliseconds: Int32 { direct.pollTimeoutMilliseconds() }

    /// Takes back `record`'s bubble shown directly, or on its way to the renderer.
    func closeDirectly(_ record: GatewayRecords.Record) {
        direct.withdraw(record.id)
        if let directID = record.directID { closeBubble(directID) }
    }

    /// `CloseNotification` of the renderer's bubble `directID`, not waited for: a renderer
    /// busy with a flood never holds the app that closed it, nor the rest.
    private func closeBubble(_ directID: UInt32) {
        renderer.close(directID) { answer in
            if case .failure(let error) = answer { Log.info("CloseNotification failed for a bubble shown directly: \(error)") }
        }
    }

    /// heraldd is reachable again.
    func reachedHeraldd() {
        toldOfOutage = false
        toldOfLateAnswers = false
    }
}
