/// An image: an avatar, a group image, a Focus's allowed person's picture (`INImage`).
///
/// Either `{url}` (a `file:` or `https:` URL) or `{data, mimeType}` with base64 `data` of
/// at most 256 KiB decoded. Herald checks the form; it never reads the URL.
package struct NotificationImage: Codable, Sendable, Hashable {
    package var url: String?
    /// Base64, at most 256 KiB once decoded.
    package var data: String?
    /// An `image/…` type, required with `data`.
    package var mimeType: String?

    package init(url: String) {
        self.url = url
    }

    package init(data: String, mimeType: String) {
        self.data = data
        self.mimeType = mimeType
    }

    package init(url: String? = nil, data: String? = nil, mimeType: String? = nil) {
        self.url = url
        self.data = data
        self.mimeType = mimeType
    }

    /// The largest decoded `data`, in bytes.
    package static let maximumDataSize = 256 * 1024
}

extension NotificationImage: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            NotificationImage(
                url: try members.optional("url"),
                data: try members.optional("data"),
                mimeType: try members.optional("mimeType")
            )
        }
    }
}

extension NotificationImage: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("url", url)
        members.add("data", data)
        members.add("mimeType", mimeType)
    }
}
