import Foundation
import HeraldProtocol

/// Where a bubble's image comes from: a local file, or bytes the presenter writes to one.
package enum ImageSource: Sendable, Hashable {
    /// A `file:` URL's path.
    case file(path: String)
    /// Inline base64 `data`, decoded, with its `image/…` type.
    case inline(data: Data, mimeType: String)

    /// The image a notification shows: the communication's avatar (a group's image), else
    /// its sender's image (a group without an image of its own shows who wrote), else its
    /// first image attachment. Only `file:` URLs and inline data count: a presenter never fetches.
    package static func of(_ content: NotificationContent) -> ImageSource? {
        for image in [content.communication?.avatar, content.communication?.sender?.image] {
            guard let image else { continue }
            if let source = from(url: image.url, data: image.data, mimeType: image.mimeType) { return source }
        }
        for attachment in content.attachments?.arrayValue ?? [] {
            guard let object = attachment.objectValue else { continue }
            let url = object["url"]?.stringValue
            let mimeType = object["mimeType"]?.stringValue ?? object["type"]?.stringValue
            guard isImage(url: url, mimeType: mimeType) else { continue }
            if let source = from(url: url, data: object["data"]?.stringValue, mimeType: mimeType) { return source }
        }
        return nil
    }

    /// The name extension for an inline image's file, so servers that look at it agree.
    package var fileExtension: String {
        guard case .inline(_, let mimeType) = self else { return "" }
        switch mimeType.lowercased() {
        case "image/png": return "png"
        case "image/jpeg", "image/jpg": return "jpg"
        case "image/gif": return "gif"
        case "image/webp": return "webp"
        case "image/svg+xml": return "svg"
        case "image/bmp": return "bmp"
        default: return "img"
        }
    }

    /// Bytes of an image whose type was not said (a portal's `("bytes", <ay>)` icon), with
    /// the type their first bytes show: PNG, JPEG, GIF, WebP, BMP or SVG; nil for others.
    package static func sniffed(_ bytes: [UInt8]) -> ImageSource? {
        let mimeType: String
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            mimeType = "image/png"
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            mimeType = "image/jpeg"
        } else if bytes.starts(with: Array("GIF8".utf8)) {
            mimeType = "image/gif"
        } else if bytes.starts(with: Array("RIFF".utf8)), bytes.count >= 12, bytes[8..<12].elementsEqual("WEBP".utf8) {
            mimeType = "image/webp"
        } else if bytes.starts(with: Array("BM".utf8)) {
            mimeType = "image/bmp"
        } else if String(decoding: bytes.prefix(512), as: UTF8.self).firstRange(of: "<svg") != nil {
            mimeType = "image/svg+xml"
        } else {
            return nil
        }
        return .inline(data: Data(bytes), mimeType: mimeType)
    }

    private static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "svg", "bmp"]

    private static func isImage(url: String?, mimeType: String?) -> Bool {
        if let mimeType { return mimeType.lowercased().hasPrefix("image/") }
        guard let url, let parsed = URL(string: url) else { return false }
        return imageExtensions.contains(parsed.pathExtension.lowercased())
    }

    private static func from(url: String?, data: String?, mimeType: String?) -> ImageSource? {
        if let url, let parsed = URL(string: url), parsed.scheme?.lowercased() == "file", !parsed.path.isEmpty {
            return .file(path: parsed.path)
        }
        if let data, let mimeType, let bytes = Data(base64Encoded: data), !bytes.isEmpty {
            return .inline(data: bytes, mimeType: mimeType)
        }
        return nil
    }
}
