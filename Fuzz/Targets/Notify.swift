import HeraldBus
import HeraldDesktop
import HeraldProtocol

/// What herald-notify's gateway makes of an app's `Notify`: the input, cut at NUL bytes,
/// is the app name, summary, body, `desktop-entry` and `category` hints, with its first
/// byte as the urgency. Findings besides a crash, a hang or a leak:
/// - heraldd's own params readers refuse what the gateway sends for it (`donate`,
///   `update-content`): the notification would be shown past Herald, directly;
/// - the app is not a valid app name, or Herald's copy of a text is over its bound;
/// - a text escaped as body markup does not read back as itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNotify(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 1 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let fields = bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: UnsafeRawBufferPointer(rebasing: $0), as: UTF8.self)
    }
    func field(_ index: Int) -> String { index < fields.count ? fields[index] : "" }
    var hints = [BusEntry(key: "urgency", value: .byte(bytes[0] % 4))]
    if fields.count > 3 { hints.append(BusEntry(key: "desktop-entry", value: .string(field(3)))) }
    if fields.count > 4 { hints.append(BusEntry(key: "category", value: .string(field(4)))) }
    let notification = FreedesktopNotification(appName: field(0), summary: field(1), body: field(2), hints: hints)

    let app = notification.app(verified: nil)
    guard !app.isEmpty, app.utf8.count <= 255,
        app.utf8.allSatisfy({ $0 < 0x80 && ($0 == 0x2E || $0 == 0x2D || $0 == 0x5F || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || (0x30...0x39).contains($0)) })
    else { fatalError("not a valid app name: \(app.utf8.count) bytes") }
    for member in ["title", "body"] {
        guard (notification.content[member]?.stringValue?.utf8.count ?? 0) <= FreedesktopNotification.maximumTextBytes else {
            fatalError("Herald's \(member) is over its bound")
        }
    }
    let identifier = "fdo-1-1"
    do {
        _ = try UpdateContentMethod.decodeParams(
            .object(notification.updateParams(app: app, identifier: identifier, interaction: true, gateway: "freedesktop", verifiedBy: nil))
        )
        if let donation = notification.donateParams(app: app, identifier: identifier) { _ = try DonateMethod.decodeParams(.object(donation)) }
    } catch {
        fatalError("heraldd refuses the gateway's params: \(error)")
    }
    guard BodyMarkup.plainText(BodyMarkup.escape(field(2))) == field(2) else { fatalError("escaped text does not read back") }
    return 0
}
