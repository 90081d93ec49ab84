import Foundation
import HeraldCore
import HeraldProtocol

/// Params decoding of every method: the first byte chooses the method, the rest is a JSON
/// text whose value is decoded as that method's params, as the server does after parsing.
/// Every failure must be an `RPCError`; a crash, a hang or a leak is a finding.
/// Some params go on to Core's rule, with an invariant of their own as a finding:
/// - `search-notifications`: the query is put in a notification and searched for; a
///   notification not found by its own words is a finding.
/// - `snooze-notification`: the notification it names is delivered, snoozed, and must come
///   back exactly once, at its time and not before.
/// - `set-focus`: the Focus is turned on and a notification delivered under it; a Focus
///   that silences its app and lets an active notification ring is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParams(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 1 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let method = HeraldMethods.all[Int(bytes[0]) % HeraldMethods.all.count]
    guard let params = try? JSONParser.parse(UnsafeRawBufferPointer(rebasing: bytes[1...]), maxDepth: 64) else { return 0 }
    decode(method, params)
    return 0
}

private func decode<Method: HeraldMethod>(_ method: Method.Type, _ params: JSONValue) {
    guard let decoded = try? Method.decodeParams(params) else { return }
    if let search = decoded as? SearchNotificationsParams { searchItsOwnWords(search) }
    if let snooze = decoded as? SnoozeNotificationParams { snoozeAndComeBack(snooze) }
    if let focus = decoded as? SetFocusParams { deliverUnderFocus(focus) }
}

private let fuzzCaller = Caller(uid: 1000, gid: 1000, pid: 1, isAdministrator: false)
private let fuzzNow = Date(timeIntervalSince1970: 1_800_000_000)

private func fuzzState() -> HeraldState {
    HeraldState(configuration: CoreConfiguration(timeZone: .utc))
}

private func snoozeAndComeBack(_ params: SnoozeNotificationParams) {
    var state = fuzzState()
    let content = NotificationContent(title: "Fuzz", body: "snoozed")
    guard (try? state.updateContent(UpdateContentParams(app: params.app, identifier: params.identifier, content: content), caller: fuzzCaller, now: fuzzNow)) != nil,
        let until = try? state.snoozeNotification(params, caller: fuzzCaller, now: fuzzNow).outcome.result.snoozedUntil
    else { return }
    if !state.returnDueSnoozed(now: until - 0.5).isEmpty { fatalError("a snoozed notification came back before its time") }
    let back = state.returnDueSnoozed(now: until)
    guard back.count == 1, back[0].notification.identifier == params.identifier else {
        fatalError("a snoozed notification came back \(back.count) times at its time, not once")
    }
    if !state.returnDueSnoozed(now: until + 86_400).isEmpty { fatalError("a snoozed notification came back twice") }
}

private func deliverUnderFocus(_ params: SetFocusParams) {
    var state = fuzzState()
    guard params.uid == nil, let focus = try? state.setFocus(params, caller: fuzzCaller, now: fuzzNow).result.focus else { return }
    let app = "org.example.fuzz"
    let content = NotificationContent(title: "Fuzz", body: "under a Focus", interruptionLevel: .active)
    guard let delivered = try? state.updateContent(UpdateContentParams(app: app, identifier: "n", content: content), caller: fuzzCaller, now: fuzzNow)
    else { return }
    let delivery = delivered.result.delivery
    if focus.silencedApps?.contains(app) == true, delivery.presentation == .alert {
        fatalError("a Focus that silences \(app) let its notification ring: \(delivery.reasons.map(\.code))")
    }
}

private func searchItsOwnWords(_ params: SearchNotificationsParams) {
    var state = fuzzState()
    let content = NotificationContent(title: "Fuzz", body: params.query, threadIdentifier: params.cursor)
    guard (try? state.updateContent(UpdateContentParams(app: "org.example.fuzz", identifier: "n", content: content), caller: fuzzCaller, now: fuzzNow)) != nil
    else { return }
    guard let found = try? state.notificationListView.searchNotifications(params, caller: fuzzCaller) else { return }
    let unfiltered = params.app == nil && params.state == nil && params.since == nil && params.until == nil && params.cursor == nil
        && params.uid == nil && params.limit.map({ $0 > 0 }) ?? true
    if unfiltered && found.result.notifications.map(\.identifier) != ["n"] {
        fatalError("a notification was not found by the words of its own body: \(params.query.debugDescription)")
    }
}
