import Foundation
import HeraldCore
import HeraldProtocol

/// Params decoding of every method: the first byte chooses the method, the rest is a JSON
/// text whose value is decoded as that method's params, as the server does after parsing.
/// Every failure must be an `RPCError`; a crash, a hang or a leak is a finding.
/// `search-notifications` params go on to Core's rule: the query is put in a notification
/// and searched for, and a notification not found by its own words is a finding too.
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
}

private func searchItsOwnWords(_ params: SearchNotificationsParams) {
    let caller = Caller(uid: 1000, gid: 1000, pid: 1, isAdministrator: false)
    var state = HeraldState(configuration: CoreConfiguration(timeZone: TimeZone(identifier: "UTC")!))
    let content = NotificationContent(title: "Fuzz", body: params.query, threadIdentifier: params.cursor)
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    guard (try? state.updateContent(UpdateContentParams(app: "org.example.fuzz", identifier: "n", content: content), caller: caller, now: now)) != nil
    else { return }
    guard let found = try? state.notificationListView.searchNotifications(params, caller: caller) else { return }
    let unfiltered = params.app == nil && params.state == nil && params.since == nil && params.until == nil && params.cursor == nil
        && params.uid == nil && params.limit.map({ $0 > 0 }) ?? true
    if unfiltered && found.result.notifications.map(\.identifier) != ["n"] {
        fatalError("a notification was not found by the words of its own body: \(params.query.debugDescription)")
    }
}
