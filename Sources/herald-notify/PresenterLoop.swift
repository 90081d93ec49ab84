import CSystemd
import Foundation
import HeraldBus
import class HeraldClient.HeraldClient
import class HeraldClient.HeraldPollConnection
import struct HeraldClient.HeraldError
import HeraldDesktop
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// herald-notify's one loop: polls the session bus (and, as the gateway, the renderer's
/// bus too), heraldd's socket and a signalfd for SIGTERM and SIGINT, and reconnects to
/// heraldd with ``Backoff`` when it goes.
///
/// Everything runs on this thread: sd-bus is not thread-safe, and a presenter has nothing
/// to do in parallel. Calls to the notification server block for at most its call timeout.
final class PresenterLoop {
    let socket: () -> String
    let uid: UInt32
    /// The renderer's bus first; the person's, where the gateway serves, after it.
    let buses: [SessionBus]
    /// The gateway for apps' own notifications (`--gateway`), when it serves.
    var gateway: NotificationGateway? {
        didSet { wireGateway() }
    }
    let presenter: DesktopPresenter
    let presentedUntil: PresentedUntil
    /// The person's prompt for replies (`--reply-command`), when one is given.
    var replyPrompt: ReplyPrompt?
    private var link: HeraldPollConnection?
    private var linkPath = ""
    /// Whether heraldd answered the subscription: what it delivers from then on is presented here.
    private var subscribed = false
    /// heraldd answered -32602 at `/since` (it predates it): subscribe without it.
    private var sinceUnknown = false
    private var backoff = Backoff()
    private var reconnectAt = ContinuousClock.now
    /// Whether "heraldd is unreachable" was logged since the last subscription (once per outage).
    private var loggedUnreachable = false
    private var loggedNoResponses = false
    private var loggedNoAuthorizationRequests = false
    private let signalFD: Int32
    /// How long to wait before asking again a heraldd that has no `subscribe-notifications`.
    static let olderDaemonRetry: Duration = .seconds(30)

    /// What a request besides `subscribe-notifications` was sent for: its answer's handler acts on it.
    private enum Pending {
        /// `respond-to-notification` for an action on a bubble.
        case response(NotificationKey)
        /// `snooze-notification`: "Snooze 1 hour" on a bubble.
        case snooze(NotificationKey)
        /// `set-conversation`: "Mute conversation 1 hour" on a bubble.
        case muteConversation(NotificationKey)
        /// `list-authorization-requests`, after each subscription.
        case waitingRequests
        /// `set-focus-authorization`: the person's answer to an app's prompt.
        case authorization(app: String)
        /// The gateway's `donate` before a message's or call's `update-content`.
        case gatewayDonate
        /// The gateway's `update-content` of its notification `id`, the `sequence`th of its
        /// app (``GatewayGrants``), shown already under a standing grant when `granted`.
        case gatewayUpdate(id: UInt32, interaction: Bool, sequence: Int, granted: Bool)
        /// `release-grants`, answering `grants-revoked`.
        case releaseGrants
        /// The gateway's `remove-notifications` for an app's `CloseNotification`.
        case gatewayWithdraw
        /// A page of `list-notifications` after `events-skipped`, of listing `generation`.
        case relist(generation: Int)
        /// `list-notifications` for "Show" on a Focus digest's bubble.
        case missed(FocusDigest)
    }

    /// The list read afresh after `events-skipped`, page by page: which bubbles were shown
    /// when it began, and which of them are still delivered.
    private struct Relisting {
        var generation: Int
        var pages = 0
        var shown: Set<NotificationKey>
        var delivered: Set<NotificationKey> = []
    }
    private var relisting: Relisting?
    /// heraldd's standing grants to the gateway.
    private var grants = GatewayGrants()
    private var relistings = 0
    /// The pages one listing reads at most (a page is up to `--max-response-bytes`): past
    /// them, no bubble is closed, since which are gone is not known.
    static let maximumRelistPages = 64

    init(socket: @escaping () -> String, uid: UInt32, buses: [SessionBus], presenter: DesktopPresenter, presentedUntil: PresentedUntil) {
        self.socket = socket
        self.uid = uid
        self.buses = buses
        self.presenter = presenter
        self.presentedUntil = presentedUntil
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        sigprocmask(SIG_BLOCK, &signals, nil)
        signalFD = signalfd(-1, &signals, Int32(SFD_CLOEXEC))
        signal(SIGPIPE, SIG_IGN)
        presenter.onResponse = { [unowned self] uid, key, action, text in
            gateway?.actionInvoked(key, action: action, reply: text)
            respond(uid: uid, key: key, action: action, userText: text)
        }
        presenter.onClosed = { [unowned self] key, reason in gateway?.bubbleClosed(key, reason: reason) }
        presenter.onAuthorization = { [unowned self] uid, app, status in authorize(uid: uid, app: app, status: status) }
        presenter.onSnooze = { [unowned self] uid, key in snooze(uid: uid, key: key) }
        presenter.onMuteConversation = { [unowned self] uid, key, conversation in muteConversation(uid: uid, key: key, conversation: conversation) }
        presenter.onShowMissed = { [unowned self] uid, digest in listMissed(uid: uid, digest: digest) }
        presenter.onPromptReply = { [unowned self] uid, key, action, prompt in
            replyPrompt?.ask(prompt, app: key.app) { [presenter] text in presenter.onResponse(uid, key, action, text) }
        }
    }

    /// The status ``run()`` ends with once what is being dispatched returns: ``stop(status:)``.
    private var stopStatus: Int32?

    /// Ends ``run()`` with `status` after the handler that calls it.
    func stop(status: Int32) {
        stopStatus = status
    }

    /// The sooner of two of poll's timeouts, in milliseconds; -1 is none.
    private static func sooner(_ a: Int32, _ b: Int32) -> Int32 {
        a < 0 ? b : b < 0 ? a : min(a, b)
    }

    /// Runs until SIGTERM or SIGINT (0), until the session bus is lost (1), or until
    /// ``stop(status:)``.
    ///
    /// The gateway's bus (the person's) is paused while heraldd has not read what was
    /// written to it (``HeraldPollConnection/isCongested``), or while the renderer has not taken what
    /// was shown: an app that floods waits in the bus, and nothing here waits on either. It
    /// is processed ``gatewaySlice`` at a time, heraldd's socket read between slices.
    func run() -> Int32 {
        var moreWaiting = false
        while true {
            if link == nil, ContinuousClock.now >= reconnectAt { connect() }
            let paused = gatewayPaused
            var fds = [pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0)]
            var timeout: Int32 = moreWaiting && !paused ? 0 : -1
            for (index, bus) in buses.enumerated() {
                let gated = paused && index == buses.count - 1
                fds.append(pollfd(fd: bus.fileDescriptor, events: gated ? 0 : bus.pollEvents, revents: 0))
                let busTimeout = gated ? -1 : bus.pollTimeoutMilliseconds
                timeout = Self.sooner(timeout, busTimeout)
            }
            let linkIndex = link.map { link in
                fds.append(pollfd(fd: link.fileDescriptor, events: link.pollEvents, revents: 0))
                return fds.count - 1
            }
            let promptIndex = replyPrompt?.fileDescriptor.map { fd in
                fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
                return fds.count - 1
            }
            let untilWrite = presentedUntil.pollTimeoutMilliseconds
            timeout = Self.sooner(timeout, untilWrite)
            let untilReply = gateway?.heldReplies.pollTimeoutMilliseconds() ?? -1
            timeout = Self.sooner(timeout, untilReply)
            let untilLate = gateway?.lateAnswerPollTimeoutMilliseconds ?? -1
            timeout = Self.sooner(timeout, untilLate)
            timeout = Self.sooner(timeout, presenter.lateAnswerPollTimeoutMilliseconds)
            if link == nil {
                timeout = Self.sooner(timeout, reconnectAt.pollTimeoutMilliseconds())
            }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0, errno != EINTR {
                Log.info("poll failed: \(String(cString: strerror(errno)))")
                presentedUntil.finishWriting()
                return 1
            }
            if fds[0].revents != 0 {
                if subscribed { presentedUntil.recordNow(Date()) }
                presentedUntil.finishWriting()
                return 0
            }
            if let linkIndex, fds[linkIndex].revents != 0 { handleDaemon(fds[linkIndex].revents) }
            if let promptIndex, fds[promptIndex].revents != 0 { replyPrompt?.read() }
            do {
                for (index, bus) in buses.enumerated() {
                    if index == buses.count - 1, gateway != nil {
                        // A slice at a time, so that heraldd's answers are read between
                        // slices of a flood: a presenter that reads nothing for 2 s is closed.
                        let sliceEnd = ContinuousClock.now + Self.gatewaySlice
                        moreWaiting = try bus.processPending { [unowned self] in !gatewayPaused && ContinuousClock.now < sliceEnd }
                    } else {
                        try bus.processPending()
                    }
                }
            } catch {
                Log.info("lost the session bus: \(error)")
                presentedUntil.finishWriting()
                return 1
            }
            if let stopStatus {
                presentedUntil.finishWriting()
                return stopStatus
            }
            gateway?.sendHeldReplies()
            gateway?.sendPastLateAnswers()
            presenter.sendPastLateAnswers()
            // After what arrived: a bubble never waits for the file.
            presentedUntil.writeIfDue()
        }
    }

    /// Whether the gateway's bus waits: for heraldd to read, or for the renderer to take
    /// the bubbles on their way to it (more than ``maximumBacklog`` of heraldd's, or as
    /// many shown directly while heraldd is away as may wait: ``DirectBubbles``). An app
    /// that sends faster than the renderer shows so waits in the bus, as it would on the
    /// renderer's own, and heraldd never has more for this presenter than it takes.
    private var gatewayPaused: Bool {
        guard let gateway, buses.count > 1 else { return false }
        return link?.isCongested == true || presenter.backlog > Self.maximumBacklog || gateway.showingDirectlyIsFull
    }
    static let maximumBacklog = 256

    /// The longest the gateway's bus is processed before heraldd's socket is read again.
    /// heraldd closes a presenter that leaves its output unread past `--max-unread-bytes`
    /// for 2 s; on a loaded machine, handing a flood's calls on without reading between
    /// them took longer than that, and the gateway then showed the rest directly.
    static let gatewaySlice = Duration.milliseconds(50)

    private func connect() {
        let path = socket()
        do {
            let link = try HeraldPollConnection(HeraldClient.Configuration(socketPath: path))
            // Read as HeraldDesktop's PresenterEvent from heraldd's parsed JSON, not as a
            // HeraldEvent: each delivery is on the gateway's path (docs/clients.md).
            link.onNotification = { [unowned self] method, params in event(method: method, params: params) }
            var params = JSONObject()
            params["uid"] = .number(JSONNumber(Int(uid)))
            // What heraldd delivered since this desktop last presented comes first, once.
            if let since = presentedUntil.date, !sinceUnknown { params["since"] = .string(RFC3339.format(since)) }
            try link.send("subscribe-notifications", params: params) { [unowned self] answer in subscriptionAnswered(answer) }
            self.link = link
            linkPath = path
        } catch {
            if !loggedUnreachable {
                Log.info("heraldd is not reachable: \(error); trying again, at most every \(Backoff.longest)")
                loggedUnreachable = true
            }
            reconnectAt = .now + backoff.take()
        }
    }

    /// Closes the connection: no answer to it is handled after this. The gateway's
    /// notifications heraldd never answered for were shown directly by their handlers,
    /// which the connection ran with `connectionLost` when heraldd closed it; while it is
    /// closed here (heraldd refused the subscription), the gateway has sent none.
    private func disconnect(retryIn delay: Duration) {
        if subscribed { presentedUntil.recordNow(Date()) }
        subscribed = false
        grants.dropAll()
        link?.close()
        link = nil
        relisting = nil
        gateway?.sendHeldReplies(all: true)
        reconnectAt = .now + delay
    }

    /// Hands what `poll` said of heraldd's socket to the connection, which writes what is
    /// queued and runs the handlers of the lines that came; a line that is not JSON-RPC is
    /// logged and skipped.
    private func handleDaemon(_ revents: Int16) {
        var revents = revents
        while let link {
            do {
                return try link.handle(revents)
            } catch let error as HeraldError where error.kind == .unreadable && link.fileDescriptor >= 0 {
                Log.info("heraldd sent a line that is not a JSON-RPC object; ignored")
                revents = 0
            } catch {
                Log.info("lost heraldd at \(linkPath): \(error); reconnecting")
                loggedUnreachable = true
                return disconnect(retryIn: backoff.take())
            }
        }
    }

    private func event(method: String, params: JSONValue) {
        if method == GrantsRevoked.method { return grantsRevoked(params) }
        do {
            guard let event = try PresenterEvent(method: method, params: params) else { return }
            if case .eventsSkipped(let count, let alerts) = event {
                // A revocation may be among them: its answer is heraldd's 50 ms.
                grants.dropAll()
                return skipped(count, alerts: alerts ?? count)
            }
            presenter.handle(event)
            if case .delivered(_, let notification) = event { presentedUntil.record(notification.deliveredAt ?? notification.receivedAt) }
        } catch {
            Log.info("ignored a \(method) notification heraldd sent: \(error.reason) (\(error.pointer ?? "/params"))")
        }
    }

    /// heraldd's answer to `subscribe-notifications`.
    private func subscriptionAnswered(_ answer: Result<JSONValue, HeraldError>) {
        guard case .failure(let error) = answer else {
            Log.info("presenting uid \(uid)'s notifications from heraldd at \(linkPath)")
            subscribed = true
            gateway?.reachedHeraldd()
            presentedUntil.recordNow(Date())
            backoff.reset()
            loggedUnreachable = false
            listWaitingRequests()
            return
        }
        // The connection's end: handle(_:) throws it next, and the loop reconnects.
        guard error.kind == .answered else { return }
        switch error.code {
        case -32602 where error.pointer == "/since":
            Log.info("heraldd at \(linkPath) does not know subscribe-notifications' since: what it delivered before is not shown")
            sinceUnknown = true
            disconnect(retryIn: .zero)
        case -32601:
            Log.info("heraldd at \(linkPath) has no subscribe-notifications (it predates the notification list); asking again in \(Self.olderDaemonRetry)")
            disconnect(retryIn: Self.olderDaemonRetry)
        default:
            Log.info("subscribe-notifications failed: \(error.code) \(error.message); reconnecting")
            disconnect(retryIn: backoff.take())
        }
    }

    /// heraldd's answer to a request sent for `request`.
    private func answered(_ request: Pending, _ answer: Result<JSONValue, HeraldError>) {
        let result: JSONValue?
        let code: Int?
        let message: String
        switch answer {
        case .success(let value):
            (result, code, message) = (value, nil, "")
        case .failure(let error) where error.kind == .answered:
            (result, code, message) = (nil, error.code, error.message)
        case .failure:
            // heraldd closed the connection first: what it never answered for of the
            // gateway's is shown directly, so nothing an app sent is lost.
            if case .gatewayUpdate(let id, _, _, false) = request { gateway?.showDirectly(id) }
            return
        }
        switch (request, code) {
        case (.response, -32601):
            if !loggedNoResponses {
                Log.info("heraldd at \(linkPath) has no respond-to-notification: actions are not answered")
                loggedNoResponses = true
            }
        case (.response(let key), let code?):
            Log.info("respond-to-notification for \(key) failed: \(code) \(message)")
        case (.snooze(let key), let code?):
            Log.info("snooze-notification for \(key) failed: \(code) \(message)")
        case (.muteConversation(let key), let code?):
            Log.info("set-conversation for \(key) failed: \(code) \(message)")
        case (.waitingRequests, -32601):
            if !loggedNoAuthorizationRequests {
                Log.info("heraldd at \(linkPath) has no list-authorization-requests: requests made before this connection are not asked")
                loggedNoAuthorizationRequests = true
            }
        case (.waitingRequests, let code?):
            Log.info("list-authorization-requests failed: \(code) \(message)")
        case (.waitingRequests, nil):
            do {
                presenter.authorizationRequestsWaiting(try AuthorizationRequest.waiting(in: result ?? .null), uid: uid)
            } catch {
                Log.info("ignored list-authorization-requests' result: \(error.reason) (\(error.pointer ?? "/result"))")
            }
        case (.authorization(let app), let code?):
            // The prompt stays until the request is answered, so the person may try again.
            Log.info("set-focus-authorization for \(app) failed: \(code) \(message)")
        case (.gatewayUpdate(let id, _, let sequence, true), let code?):
            // Shown already; heraldd did not take it (its list is full of scheduled ones).
            let app = gateway?.records[id]?.app ?? "an app"
            grants.answered(app: app, sequence: sequence, grant: nil)
            Log.info("heraldd refused a notification of \(app) shown under a standing grant: \(code) \(message)")
            gateway?.decided(id)
        case (.gatewayUpdate(let id, true, _, _), _?):
            // Not a communication after all (the donation was refused, the capability is off):
            // the same notification, without its interaction.
            guard let record = gateway?.records[id] else { break }
            submit(record, interaction: false)
        case (.gatewayUpdate(let id, false, _, _), let code?):
            Log.info("heraldd refused a notification of \(gateway?.records[id]?.app ?? "an app"): \(code) \(message); shown directly")
            gateway?.showDirectly(id)
            gateway?.decided(id)
        case (.gatewayUpdate(let id, _, let sequence, let granted), nil):
            gatewayDecided(id, sequence: sequence, granted: granted, result: result?.objectValue)
        case (.gatewayWithdraw, let code?):
            Log.info("remove-notifications for a closed notification failed: \(code) \(message)")
        case (.relist(let generation), let code?):
            if relisting?.generation == generation { relisting = nil }
            Log.info("list-notifications failed: \(code) \(message); bubbles of notifications removed meanwhile stay")
        case (.relist(let generation), nil):
            relisted(generation: generation, result: result)
        case (.missed(let digest), let code?):
            Log.info("list-notifications for what \(digest.focus) silenced failed: \(code) \(message)")
        case (.missed(let digest), nil):
            showMissed(digest, result: result)
        case (.releaseGrants, let code?):
            Log.info("release-grants failed: \(code) \(message)")
        case (.response, nil), (.authorization, nil), (.snooze, nil), (.muteConversation, nil), (.gatewayDonate, _),
            (.gatewayWithdraw, nil), (.releaseGrants, nil):
            break
        }
    }

    /// heraldd did not send `count` events of a burst, `alerts` of them alerts: the person is
    /// told of those, and the lists are read afresh, as the protocol asks of a presenter —
    /// the waiting authorization requests, and the delivered notifications, whose bubbles
    /// are closed when they are gone.
    private func skipped(_ count: Int, alerts: Int) {
        Log.info("heraldd skipped \(count) events (\(alerts) alerts) of a burst this presenter did not take in time; reading the lists afresh")
        presenter.showSkipped(alerts, uid: uid)
        listWaitingRequests()
        relistings += 1
        relisting = Relisting(generation: relistings, shown: presenter.notificationBubbles(of: uid))
        relist(cursor: nil)
    }

    private func relist(cursor: String?) {
        guard let generation = relisting?.generation else { return }
        var params = JSONObject()
        params["state"] = .string("delivered")
        if let cursor { params["cursor"] = .string(cursor) }
        send("list-notifications", params, as: .relist(generation: generation), while: "reading the list afresh")
    }

    /// A page of the list read afresh: the next is asked for, or, after the last, the
    /// bubbles of notifications no longer delivered are closed.
    private func relisted(generation: Int, result: JSONValue?) {
        guard var listing = relisting, listing.generation == generation else { return }
        for entry in result?.objectValue?["notifications"]?.arrayValue ?? [] {
            guard let object = entry.objectValue, let app = object["app"]?.stringValue, let identifier = object["identifier"]?.stringValue else { continue }
            listing.delivered.insert(NotificationKey(app: app, identifier: identifier))
        }
        listing.pages += 1
        relisting = listing
        if let cursor = result?.objectValue?["nextCursor"]?.stringValue {
            guard listing.pages >= Self.maximumRelistPages else { return relist(cursor: cursor) }
            relisting = nil
            return Log.info("the list is longer than \(Self.maximumRelistPages) pages: bubbles of notifications removed meanwhile stay")
        }
        relisting = nil
        let gone = listing.shown.subtracting(listing.delivered)
        guard !gone.isEmpty else { return }
        Log.info("closing \(gone.count) bubbles of notifications no longer delivered, whose removal was skipped")
        presenter.closeBubbles(of: gone)
    }

    /// "Show" on a Focus digest: the newest delivered notifications of `uid`, from which
    /// those the Focus silenced are listed in the digest's place.
    private func listMissed(uid: UInt32, digest: FocusDigest) {
        var params = JSONObject()
        params["state"] = .string("delivered")
        params["limit"] = .number(JSONNumber(Self.missedListed))
        if uid != self.uid { params["uid"] = .number(JSONNumber(Int(uid))) }
        send("list-notifications", params, as: .missed(digest), while: "listing what \(digest.focus) silenced")
    }

    /// The most notifications "Show" reads: a digest lists a handful, and the rest is
    /// `heraldctl focus missed`'s.
    static let missedListed = 200

    private func showMissed(_ digest: FocusDigest, result: JSONValue?) {
        do {
            let missed = try PresentedNotification.page(in: result ?? .null).filter { NotificationMapping.isMissed($0, during: digest) }
            Log.info("showing \(missed.count) of the \(digest.total) notifications \(digest.focus) silenced")
            presenter.showMissed(digest, newestFirst: missed)
        } catch {
            Log.info("ignored list-notifications' result: \(error.reason) (\(error.pointer ?? "/result"))")
        }
    }

    /// The requests waiting already, asked for after each subscription: a desktop that
    /// started (or reconnected) late asks them too.
    private func listWaitingRequests() {
        var params = JSONObject()
        params["uid"] = .number(JSONNumber(Int(uid)))
        send("list-authorization-requests", params, as: .waitingRequests, while: "listing the waiting authorization requests")
    }

    /// The person's answer to `app`'s prompt: their own `set-focus-authorization`.
    private func authorize(uid: UInt32, app: String, status: String) {
        var params = JSONObject()
        params["app"] = .string(app)
        params["status"] = .string(status)
        if uid != self.uid { params["uid"] = .number(JSONNumber(Int(uid))) }
        send("set-focus-authorization", params, as: .authorization(app: app), while: "answering \(app)'s authorization request")
    }

    private func send(_ method: String, _ params: JSONObject, as request: Pending, while doing: String) {
        guard let link else { return Log.info("heraldd is not connected: not \(doing)") }
        do {
            try link.send(method, params: params) { [unowned self] answer in answered(request, answer) }
        } catch {
            Log.info("lost heraldd at \(linkPath) while \(doing): \(error)")
            disconnect(retryIn: backoff.take())
        }
    }

    /// `respond-to-notification` for an action a person took on a bubble (with the text
    /// of an inline reply).
    private func respond(uid: UInt32, key: NotificationKey, action: String, userText: String?) {
        var params = JSONObject()
        params["app"] = .string(key.app)
        params["identifier"] = .string(key.identifier)
        params["actionIdentifier"] = .string(action)
        if let userText { params["userText"] = .string(userText) }
        if uid != self.uid { params["uid"] = .number(JSONNumber(Int(uid))) }
        send("respond-to-notification", params, as: .response(key), while: "answering an action on \(key)")
    }

    /// "Snooze 1 hour" on a bubble: heraldd takes the notification down (its
    /// `notifications-removed` closes the bubble) and delivers it again in an hour.
    private func snooze(uid: UInt32, key: NotificationKey) {
        var params = JSONObject()
        params["app"] = .string(key.app)
        params["identifier"] = .string(key.identifier)
        params["seconds"] = .number(JSONNumber(NotificationMapping.snoozeSeconds))
        if uid != self.uid { params["uid"] = .number(JSONNumber(Int(uid))) }
        send("snooze-notification", params, as: .snooze(key), while: "snoozing \(key)")
    }

    /// "Mute conversation 1 hour" on a message's bubble: heraldd delivers the conversation's
    /// next messages quietly for an hour. The notification itself stays.
    private func muteConversation(uid: UInt32, key: NotificationKey, conversation: String) {
        var params = JSONObject()
        params["app"] = .string(key.app)
        params["conversationIdentifier"] = .string(conversation)
        params["mute"] = .object(["seconds": .number(JSONNumber(NotificationMapping.muteConversationSeconds))])
        if uid != self.uid { params["uid"] = .number(JSONNumber(Int(uid))) }
        send("set-conversation", params, as: .muteConversation(key), while: "muting the conversation of \(key)")
    }

    // MARK: The gateway

    private func wireGateway() {
        gateway?.submit = { [unowned self] record in
            guard subscribed, link != nil else { return false }
            return submit(record, interaction: true)
        }
        gateway?.withdraw = { [unowned self] record in
            var params = JSONObject()
            params["app"] = .string(record.app)
            params["identifiers"] = .array([.string(record.identifier)])
            send("remove-notifications", params, as: .gatewayWithdraw, while: "removing a notification its app closed")
        }
    }

    /// Sends a gateway notification to heraldd: a message or a call is donated first, so
    /// that its notification is a communication. A plain one (``FreedesktopNotification/isPlain``)
    /// of an app with a standing grant is shown first, and heraldd told in the same
    /// `update-content`. False when it could not be sent.
    @discardableResult
    private func submit(_ record: GatewayRecords.Record, interaction: Bool) -> Bool {
        guard let link else { return false }
        let n = record.notification
        let donation = interaction ? n.donateParams(app: record.app, identifier: record.identifier) : nil
        let plain = record.portal == nil && n.isPlain
        let grant = plain ? grants.use(app: record.app) : nil
        if !plain { grants.drop(app: record.app) }
        do {
            if let donation { try link.send("donate", params: donation) { [unowned self] answer in answered(.gatewayDonate, answer) } }
            var params = n.updateParams(
                app: record.app, identifier: record.identifier, interaction: donation != nil, gateway: record.portal == nil ? "freedesktop" : "portal",
                verifiedBy: record.verifiedBy
            )
            if let grant {
                showGranted(record, sound: grant.sound)
                params["grant"] = .object(["id": .number(JSONNumber(grant.id)), "sound": .bool(grant.sound)])
            }
            let update = Pending.gatewayUpdate(
                id: record.id, interaction: donation != nil, sequence: grants.sending(app: record.app), granted: grant != nil)
            try link.send("update-content", params: params) { [unowned self] answer in answered(update, answer) }
            return true
        } catch {
            Log.info("lost heraldd at \(linkPath) while passing on a notification: \(error)")
            disconnect(retryIn: backoff.take())
            return false
        }
    }

    /// Shows a gateway notification under a standing grant, as heraldd's decision would.
    private func showGranted(_ record: GatewayRecords.Record, sound: Bool) {
        let now = Date()
        do {
            let notification = try record.notification.granted(app: record.app, identifier: record.identifier, sound: sound, at: now)
            presenter.handle(.delivered(uid: uid, notification: notification))
            presentedUntil.record(now)
        } catch {
            Log.info("could not show a notification of \(record.app) under its grant: \(error.reason)")
        }
    }

    /// heraldd decided gateway notification `id`: the app gets its answer, the app's grant
    /// is renewed, and a notification shown under a grant that heraldd held for the summary
    /// loses its bubble (any other decision that differs came as its event, replacing it).
    private func gatewayDecided(_ id: UInt32, sequence: Int, granted: Bool, result: JSONObject?) {
        gateway?.decided(id)
        guard let record = gateway?.records[id] else { return }
        if record.portal == nil { grants.answered(app: record.app, sequence: sequence, grant: result?["grant"]?.objectValue) }
        if granted, result?["grantHonoured"]?.boolValue == false {
            Log.info("heraldd decided a notification of \(record.app) otherwise than its standing grant: its bubble follows the decision")
            if result?["delivery"]?.objectValue?["presentation"]?.stringValue == "summary" { presenter.closeBubbles(of: [record.key]) }
        }
    }

    /// heraldd revoked the standing grants before a change: none is used from now on, and
    /// heraldd hears so (what was shown under them is on its way ahead of this answer).
    private func grantsRevoked(_ params: JSONValue) {
        grants.dropAll()
        guard let revocation = params.objectValue?["revocation"]?.numberValue?.intValue else {
            return Log.info("ignored a grants-revoked event without its revocation number")
        }
        send("release-grants", ["revocation": .number(JSONNumber(revocation))], as: .releaseGrants, while: "answering grants-revoked")
    }
}
