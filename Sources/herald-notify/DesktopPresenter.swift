import DequeModule
import HeraldBus
import HeraldDesktop
import HeraldProtocol

/// The bubbles herald-notify shows on the notification server: which Herald notification
/// each server id stands for, what to replace and close, what an action answers.
///
/// While no server owns `org.freedesktop.Notifications`, bubbles wait (the newest
/// ``maximumWaiting``, one per notification) and are shown when a server appears.
final class DesktopPresenter {
    let server: DesktopNotifications
    let images: ImageFiles
    let entries: DesktopEntries
    private var mapping: NotificationMapping
    private(set) var serverAvailable = false
    private var shown: [Bubble.Key: ShownBubble] = [:]
    private var keyByID: [UInt32: Bubble.Key] = [:]
    /// Each thread's bubble, where the server stacks no thread itself (``Bubble/thread``).
    private var threads = ThreadStacks()
    private var waiting: [(bubble: Bubble, uid: UInt32)] = []
    /// Whether the wait for a server was logged (once per wait).
    private var waitingForServer = false
    private var droppedWhileWaiting = 0
    static let maximumWaiting = 200
    /// The Notify calls the server has not answered yet: sent without waiting, so that a
    /// burst reaches the server as fast as it takes them (one round trip at a time, dunst
    /// draws each alone, and takes half as many a second). One unanswered past the bus's
    /// call timeout is late: its answer still names its bubble (``BubbleSends``).
    private var sends: BubbleSends
    /// Whether late answers were logged: once until every send is answered.
    private var toldOfLateAnswers = false
    /// Bubbles waiting for room among the unanswered, in order.
    private var queued: Deque<(bubble: Bubble, uid: UInt32)> = []
    private var droppedFromQueue = 0
    static let maximumQueued = 10_000
    /// Each uid's last Focus digest shown, for its "Show".
    private var digests: [UInt32: FocusDigest] = [:]
    /// Events heraldd skipped for each uid since that uid's ``Bubble/Key/skipped`` bubble
    /// last closed: the count it shows.
    private var skipped: [UInt32: Int] = [:]

    /// Called when a person acts on a bubble: (uid, notification, Herald action identifier,
    /// the text typed into an inline reply).
    var onResponse: (UInt32, NotificationKey, String, String?) -> Void = { _, _, _, _ in }
    /// Called when a person answers a Focus authorization prompt: (uid, app, `authorized` or `denied`).
    var onAuthorization: (UInt32, String, String) -> Void = { _, _, _ in }
    /// "Snooze 1 hour" on a notification's bubble: heraldd takes it down and brings it back.
    var onSnooze: (UInt32, NotificationKey) -> Void = { _, _ in }
    /// "Mute conversation 1 hour" on a message's bubble: (uid, notification, conversation).
    var onMuteConversation: (UInt32, NotificationKey, String) -> Void = { _, _, _ in }
    /// A text-input action the person's prompt asks the text of: (uid, notification, Herald
    /// action identifier, what the prompt says).
    var onPromptReply: (UInt32, NotificationKey, String, String) -> Void = { _, _, _, _ in }
    /// The bubble as shown: the gateway puts an app's own text, actions and hints back.
    var adjustBubble: (Bubble) -> Bubble = { $0 }
    /// "Show" on a Focus digest's bubble: (uid, the digest) — list what it silenced.
    var onShowMissed: (UInt32, FocusDigest) -> Void = { _, _ in }
    /// A notification's bubble closed, with the server's reason.
    var onClosed: (NotificationKey, NotificationClosedReason) -> Void = { _, _ in }

    /// What the notification server said it can do.
    var serverCapabilities: ServerCapabilities { mapping.capabilities }

    /// The notification a bubble of the server's id `id` shows, if it is one.
    func notificationKey(forServerID id: UInt32) -> NotificationKey? {
        if case .notification(let key)? = keyByID[id] { return key }
        return nil
    }

    private struct ShownBubble {
        var id: UInt32
        var uid: UInt32?
        /// An inline image's file, removed when the bubble goes.
        var imageFile: String?
        var actionKeys: [String: String]
        var inlineReplyAction: String?
        var snoozeKey: String?
        var muteConversation: String?
        var replyPrompt: String?
        var thread: String?
        /// Closing it by hand answers `dismiss`.
        var answersDismissal: Bool
        /// An action was answered: the close that follows is not a dismissal.
        var answered = false
    }

    init(
        server: DesktopNotifications, images: ImageFiles, entries: DesktopEntries, quiet: QuietHandling, promptsForReplies: Bool = false
    ) throws(BusError) {
        self.server = server
        self.images = images
        self.entries = entries
        sends = BubbleSends(maximumInFlight: 32, lateAfter: server.bus.callTimeout)
        mapping = NotificationMapping(capabilities: ServerCapabilities([]), quiet: quiet, promptsForReplies: promptsForReplies)
        try server.onActionInvoked { [unowned self] id, key in actionInvoked(id: id, key: key) }
        try server.onNotificationReplied { [unowned self] id, text in replied(id: id, text: text) }
        try server.onNotificationClosed { [unowned self] id, reason in closed(id: id, reason: reason) }
        try server.onOwnerChanged { [unowned self] hasOwner in
            if hasOwner { becomeAvailable() } else { becomeUnavailable() }
        }
        if try server.serverIsAvailable() {
            becomeAvailable()
        } else {
            becomeUnavailable()
        }
    }

    func handle(_ event: PresenterEvent) {
        switch event {
        case .delivered(let uid, let notification):
            if let bubble = mapping.bubble(for: notification, entry: entries.entry(for: notification.app)) {
                show(bubble, uid: uid)
            } else {
                // Replaced by one that is not shown (quiet, with --quiet skip): the old bubble goes.
                close(.notification(notification.key))
            }
        case .summary(let uid, _, let quiet, let notifications):
            if let bubble = mapping.summaryBubble(for: notifications, quiet: quiet, appName: appName) { show(bubble, uid: uid) }
        case .removed(_, let app, let identifiers):
            for identifier in identifiers { close(.notification(NotificationKey(app: app, identifier: identifier))) }
        case .authorizationRequested(let request):
            ask(request)
        case .authorizationAnswered(let uid, let app):
            close(.authorization(uid: uid, app: app))
        case .focusDigest(let digest):
            guard let bubble = mapping.digestBubble(for: digest, appName: appName) else { break }
            digests[digest.uid] = digest
            show(bubble, uid: digest.uid)
        case .eventsSkipped:
            // Whose, only the loop knows: ``showSkipped(_:uid:)``.
            break
        }
    }

    /// What `digest`'s Focus silenced, `newestFirst`, in place of the digest's bubble.
    func showMissed(_ digest: FocusDigest, newestFirst: [PresentedNotification]) {
        show(mapping.missedBubble(for: digest, newestFirst: newestFirst, appName: appName), uid: digest.uid)
    }

    /// Says that `count` more alerts of `uid` were not shown as they came (their events were
    /// skipped), in one quiet bubble that adds them up while it is shown.
    func showSkipped(_ count: Int, uid: UInt32) {
        let total = skipped[uid, default: 0] + count
        skipped[uid] = total
        if let bubble = mapping.skippedBubble(count: total, uid: uid) { show(bubble, uid: uid) }
    }

    /// The notifications of `uid` whose bubbles are shown (or on their way).
    func notificationBubbles(of uid: UInt32) -> Set<NotificationKey> {
        var keys = Set<NotificationKey>()
        for (key, bubble) in shown where bubble.uid == uid {
            if case .notification(let notification) = key { keys.insert(notification) }
        }
        for entry in queued where entry.uid == uid {
            if case .notification(let notification) = entry.bubble.key { keys.insert(notification) }
        }
        for entry in sends.unansweredBubbles where entry.uid == uid {
            if case .notification(let notification) = entry.key { keys.insert(notification) }
        }
        return keys
    }

    /// Closes the bubbles of notifications that are no longer delivered (their removal was
    /// among the events skipped).
    func closeBubbles(of notifications: some Sequence<NotificationKey>) {
        for key in notifications { close(.notification(key)) }
    }

    /// An app as its desktop file names it ("Chatty"), else its id.
    private func appName(_ app: String) -> String {
        entries.entry(for: app)?.name ?? app
    }

    /// Shows the prompt for `request`, unless it is shown (or waiting for a server) already.
    private func ask(_ request: AuthorizationRequest) {
        let key = Bubble.Key.authorization(uid: request.uid, app: request.app)
        guard shown[key] == nil, !sends.isUnanswered(key), !queued.contains(where: { $0.bubble.key == key }),
            !waiting.contains(where: { $0.bubble.key == key })
        else { return }
        show(mapping.authorizationBubble(for: request), uid: request.uid)
    }

    /// The requests of `uid` waiting now (`list-authorization-requests` after subscribing):
    /// each is asked unless it is already, and a prompt for a request no longer waiting
    /// (answered while heraldd was away) is closed.
    func authorizationRequestsWaiting(_ requests: [AuthorizationRequest], uid: UInt32) {
        let waitingNow = Set(requests.map { Bubble.Key.authorization(uid: $0.uid, app: $0.app) })
        let bubbles = Set(shown.keys).union(sends.unansweredBubbles.map(\.key)).union(queued.map(\.bubble.key))
            .union(waiting.map(\.bubble.key))
        let prompts = bubbles.filter { key in
            if case .authorization(uid, _) = key { true } else { false }
        }
        for key in prompts.subtracting(waitingNow) { close(key) }
        for request in requests { ask(request) }
    }

    private func show(_ bubble: Bubble, uid: UInt32) {
        guard serverAvailable else { return wait(bubble, uid: uid) }
        let bubble = adjustBubble(bubble)
        // Shown again before its close went: it replaces the bubble instead.
        sends.showAgain(bubble.key)
        // In order: after those queued; and a bubble that replaces one whose Notify is in
        // flight needs that one's id first. At most ``BubbleSends/maximumInFlight`` in
        // flight, so a burst reaches the server as fast as it takes it, and the rest queue
        // here (the gateway stops taking apps' calls meanwhile: ``backlog``).
        if !queued.isEmpty || !sends.canSend(bubble, threads: threads) { return queue(bubble, uid: uid) }
        send(bubble, uid: uid)
    }

    private func queue(_ bubble: Bubble, uid: UInt32) {
        queued.append((bubble, uid))
        if queued.count > Self.maximumQueued {
            queued.removeFirst()
            droppedFromQueue += 1
        }
    }

    /// Sends what queued, in order, as far as it may go now.
    private func sendQueued() {
        while serverAvailable, let (bubble, uid) = queued.first, sends.canSend(bubble, threads: threads) {
            queued.removeFirst()
            send(bubble, uid: uid)
        }
        if queued.isEmpty, droppedFromQueue > 0 {
            Log.info("\(droppedFromQueue) bubbles were not shown: more than \(Self.maximumQueued) waited for the notification server")
            droppedFromQueue = 0
        }
    }

    /// Bubbles on their way to the server: queued here, and sent but unanswered (late ones too).
    var backlog: Int { queued.count + sends.unansweredCount }

    private func send(_ bubble: Bubble, uid: UInt32) {
        // Its own bubble again, or (where the server stacks no thread itself) its thread's last.
        let replacedKey = threads.replaced(by: bubble) { shown[$0] != nil }
        let previous = replacedKey.flatMap { shown[$0] }
        // A late Notify of either, which this one takes the place of.
        let superseded = threads.replaced(by: bubble) { sends.isUnanswered($0) }
        let image = bubble.image.flatMap(images.path(for:))
        let arguments = bubble.arguments(replacesID: previous?.id ?? 0, imagePath: image?.path)
        let sent = sends.send(bubble.key, uid: uid, replacesID: arguments.replacesID, superseding: superseded)
        do {
            let timeout = max(sends.lateAfter, DesktopNotifications.lateAnswerTimeout)
            try server.notify(arguments, timeout: timeout) { [unowned self] answer in
                answered(sent, bubble, answer, replacing: replacedKey, previous: previous, image: image)
                sendQueued()
            }
            threads.showed(bubble)
        } catch {
            _ = sends.answered(sent)
            failed(bubble, uid: uid, image: image, error: error)
        }
    }

    /// The server's answer to `sent`, `bubble`'s Notify: the id it names is the bubble's,
    /// or, for an answer a newer send superseded, a bubble of its own to close.
    private func answered(
        _ sent: BubbleSends.Sent, _ bubble: Bubble, _ answer: Result<UInt32, BusError>, replacing replacedKey: Bubble.Key?,
        previous: ShownBubble?, image: (path: String, owned: Bool)?
    ) {
        switch (sends.answered(sent), answer) {
        case (.current(let thenClose), .success(let id)):
            showed(bubble, uid: sent.uid, id: id, replacing: replacedKey, previous: previous, image: image)
            if thenClose { close(bubble.key) }
        case (.current(let thenClose), .failure(let error)):
            failed(bubble, uid: sent.uid, image: image, error: error)
            if thenClose { close(bubble.key) }
        case (.superseded, .success(let id)):
            // The bubble the newer send replaces in place is left to it.
            if id != sent.replacesID { closeSuperseded(id) }
            if let image, image.owned { images.remove(image.path) }
        case (.superseded, .failure), (.forgotten, _):
            if let image, image.owned { images.remove(image.path) }
        }
        if sends.unansweredCount == 0 { toldOfLateAnswers = false }
    }

    /// Closes bubble `id`, shown late for a send superseded since: nothing here names it.
    private func closeSuperseded(_ id: UInt32) {
        server.close(id) { answer in
            if case .failure(let error) = answer { Log.info("CloseNotification failed for a bubble shown late: \(error)") }
        }
    }

    /// Lets the bubbles queued behind Notify calls the server leaves unanswered past the
    /// bus's call timeout go, and closes those closed meanwhile; their answers are still
    /// taken when they come.
    func sendPastLateAnswers() {
        let (late, toClose) = sends.markLate()
        guard late > 0 else { return }
        if !toldOfLateAnswers {
            toldOfLateAnswers = true
            Log.info(
                "the notification server has not answered \(late) Notify calls in \(sends.lateAfter): the bubbles after them go on, and "
                    + "their answers are waited for up to \(DesktopNotifications.lateAnswerTimeout) so that they can still be replaced and closed"
            )
        }
        for key in toClose { close(key) }
        sendQueued()
    }

    /// Milliseconds until a Notify in flight is late, for poll; -1 with none in flight.
    var lateAnswerPollTimeoutMilliseconds: Int32 { sends.pollTimeoutMilliseconds() }

    /// The server answered `bubble`'s Notify with `id`.
    private func showed(
        _ bubble: Bubble, uid: UInt32, id: UInt32, replacing replacedKey: Bubble.Key?, previous: ShownBubble?,
        image: (path: String, owned: Bool)?
    ) {
        if let previous {
            if previous.id != id { keyByID[previous.id] = nil }
            if let file = previous.imageFile { images.remove(file) }
        }
        if let replacedKey, replacedKey != bubble.key { shown[replacedKey] = nil }
        shown[bubble.key] = ShownBubble(
            id: id, uid: uid, imageFile: image?.owned == true ? image?.path : nil, actionKeys: bubble.actionKeys,
            inlineReplyAction: bubble.inlineReplyAction, snoozeKey: bubble.snoozeKey, thread: bubble.thread,
            answersDismissal: bubble.answersDismissal
        )
        shown[bubble.key]?.muteConversation = bubble.muteConversation
        shown[bubble.key]?.replyPrompt = bubble.replyPrompt
        keyByID[id] = bubble.key
    }

    private func failed(_ bubble: Bubble, uid: UInt32, image: (path: String, owned: Bool)?, error: BusError) {
        if let image, image.owned { images.remove(image.path) }
        if error.isServiceUnknown {
            becomeUnavailable()
            wait(bubble, uid: uid)
        } else {
            Log.info("Notify failed for \(bubble.key): \(error)")
        }
    }

    /// Closes the bubble for `key` (`CloseNotification`), or forgets it if it is waiting;
    /// one whose Notify is in flight is closed once the server names it, one whose Notify is
    /// late by the id it had before (``BubbleSends/close(_:)``). Nothing here waits on the
    /// server: a busy one never holds what heraldd sends next.
    private func close(_ key: Bubble.Key) {
        waiting.removeAll { $0.bubble.key == key }
        queued.removeAll { $0.bubble.key == key }
        if sends.close(key) { return }
        guard let bubble = shown[key] else { return }
        // NotificationClosed (reason 3) forgets the bubble and removes its image file.
        server.close(bubble.id) { [unowned self] answer in
            guard case .failure(let error) = answer else { return }
            Log.info("CloseNotification failed for \(key): \(error)")
            forget(id: bubble.id)
        }
    }

    /// A bubble the person dismissed (reason 2) answers `dismiss` when its category asked
    /// for customDismissAction (`categoryOptions`), unless an action was answered already;
    /// expired or closed by a call, it answers nothing.
    private func closed(id: UInt32, reason: NotificationClosedReason) {
        if reason == .dismissed, let key = keyByID[id], case .notification(let notification) = key, let bubble = shown[key],
            bubble.id == id, bubble.answersDismissal, !bubble.answered, let uid = bubble.uid
        {
            onResponse(uid, notification, NotificationMapping.dismissActionIdentifier, nil)
        }
        if let key = keyByID[id], case .notification(let notification) = key, shown[key]?.id == id { onClosed(notification, reason) }
        forget(id: id)
    }

    private func forget(id: UInt32) {
        guard let key = keyByID.removeValue(forKey: id), let bubble = shown[key], bubble.id == id else { return }
        shown[key] = nil
        if case .skipped(let uid) = key { skipped[uid] = nil }
        threads.closed(key, thread: bubble.thread)
        if let file = bubble.imageFile { images.remove(file) }
    }

    /// An action on a notification answers `respond-to-notification`; one on a prompt,
    /// `set-focus-authorization` (whose `authorization-answered` then closes the prompt).
    private func actionInvoked(id: UInt32, key actionKey: String) {
        if let key = keyByID[id], case .notification(let notification) = key, let bubble = shown[key], let uid = bubble.uid,
            actionKey == bubble.snoozeKey
        {
            shown[key]?.answered = true
            return onSnooze(uid, notification)
        }
        if let key = keyByID[id], case .notification(let notification) = key, let bubble = shown[key], let uid = bubble.uid,
            actionKey == NotificationMapping.muteConversationActionKey, let conversation = bubble.muteConversation
        {
            shown[key]?.answered = true
            return onMuteConversation(uid, notification, conversation)
        }
        guard let key = keyByID[id], let bubble = shown[key], let uid = bubble.uid, let action = bubble.actionKeys[actionKey] else { return }
        shown[key]?.answered = true
        if case .notification(let notification) = key, actionKey == NotificationMapping.promptReplyKey, let prompt = bubble.replyPrompt {
            return onPromptReply(uid, notification, action, prompt)
        }
        switch key {
        case .notification(let notification): onResponse(uid, notification, action, nil)
        case .authorization(_, let app): onAuthorization(uid, app, action)
        case .focusDigest(let owner):
            if action == NotificationMapping.showMissedActionKey, let digest = digests[owner] { onShowMissed(uid, digest) }
        case .summary, .skipped: break
        }
    }

    /// The text typed into a bubble's inline reply answers its text-input action with `userText`.
    private func replied(id: UInt32, text: String) {
        guard let key = keyByID[id], case .notification(let notification) = key, let bubble = shown[key], let uid = bubble.uid,
            let action = bubble.inlineReplyAction
        else { return }
        shown[key]?.answered = true
        onResponse(uid, notification, action, text)
    }

    private func wait(_ bubble: Bubble, uid: UInt32) {
        waiting.removeAll { $0.bubble.key == bubble.key }
        waiting.append((bubble, uid))
        if waiting.count > Self.maximumWaiting {
            waiting.removeFirst()
            droppedWhileWaiting += 1
        }
    }

    private func becomeAvailable() {
        do {
            let capabilities = try server.capabilities()
            let information = try server.serverInformation()
            mapping.capabilities = ServerCapabilities(capabilities)
            serverAvailable = true
            waitingForServer = false
            Log.info(
                "showing notifications through \(information.name) \(information.version) (\(information.vendor)); "
                    + "capabilities: \(capabilities.sorted().joined(separator: " "))"
            )
        } catch {
            Log.info("the notification server did not answer: \(error)")
            return becomeUnavailable()
        }
        if droppedWhileWaiting > 0 {
            Log.info("\(droppedWhileWaiting) notifications were not kept while no server was there (at most \(Self.maximumWaiting) wait)")
            droppedWhileWaiting = 0
        }
        let bubbles = waiting
        waiting = []
        for (bubble, uid) in bubbles { show(bubble, uid: uid) }
    }

    private func becomeUnavailable() {
        if !waitingForServer {
            Log.info("no notification server owns \(DesktopNotifications.busName) on the session bus: waiting for one")
            waitingForServer = true
        }
        serverAvailable = false
        sends.removeAll()
        toldOfLateAnswers = false
        // What queued waits for the next server, as what comes meanwhile does.
        for (bubble, uid) in queued { wait(bubble, uid: uid) }
        queued = []
        for bubble in shown.values { if let file = bubble.imageFile { images.remove(file) } }
        shown = [:]
        keyByID = [:]
        threads.removeAll()
    }
}
