import FoundationEssentials

/// Another of the person's hosts, where a choice by hand was made before herald-sync
/// carried it here: `set-focus`'s `origin`, and `get-focus`'s while that choice decides
/// the Focus.
package struct FocusOrigin: Codable, Sendable, Hashable {
    /// The host's name, as herald-sync there calls it (its `host-name`).
    package var host: String
    /// Why the Focus was on at that host (`manual`, `until`, `held`); absent when the
    /// choice there was every Focus off.
    package var reason: FocusReason?

    /// The most bytes of UTF-8 a host's name takes (a DNS name's bound).
    package static let maxHostBytes = 255

    package init(host: String, reason: FocusReason? = nil) {
        self.host = host
        self.reason = reason
    }
}

extension FocusOrigin: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            FocusOrigin(host: try members.required("host"), reason: try members.optional("reason"))
        }
    }
}
