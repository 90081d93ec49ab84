import FoundationEssentials
import HeraldProtocol

/// The shape rules of a person and an image, wherever they appear: an interaction's
/// people, a group image, a Focus's allowed people.
///
/// Paths are autoclosures, written out only for an error (see `DonationRules`).
enum PersonRules {
    /// A person needs a handle or a display name; handles need a value; an image is valid.
    /// Errors are invalid params pointing into `path`.
    static func validate(_ person: Person, at path: @autoclosure () -> MemberPath) throws(RuleError) {
        guard person.handle.isPresent || !(person.displayName?.isEmpty ?? true) else {
            throw .invalidParams("A person needs a handle or a displayName.", at: path())
        }
        try validateParts(person, at: path())
    }

    /// A Focus's allowed person must be able to match a sender (see ``PersonIdentity``): a
    /// handle or an alias, a `contactIdentifier` or a `customIdentifier`; a display name
    /// alone never matches anyone. Otherwise as ``validate(_:at:)``.
    static func validateAllowed(_ person: Person, at path: @autoclosure () -> MemberPath) throws(RuleError) {
        try validateParts(person, at: path())
        guard !PersonIdentity.keys(of: person).isEmpty else {
            throw .invalidParams(
                "An allowed person needs a handle, a contactIdentifier or a customIdentifier: a displayName alone never matches a sender.",
                at: path()
            )
        }
    }

    /// Handles need a value; an image is valid.
    private static func validateParts(_ person: Person, at path: @autoclosure () -> MemberPath) throws(RuleError) {
        // Read where they are, not bound or enumerated: see ``Optional/isPresent``.
        if person.handle?.value.isEmpty == true {
            throw .invalidParams("A handle's value cannot be empty.", at: path().appending(["handle", "value"]))
        }
        for index in 0..<(person.aliases?.count ?? 0) where person.aliases?[index].value.isEmpty == true {
            throw .invalidParams("A handle's value cannot be empty.", at: path().appending(["aliases", .index(index), "value"]))
        }
        if let image = person.image {
            try validate(image, at: path().appending("image"))
        }
    }

    /// An image is `{url}` with a `file:` or `https:` URL, or `{data, mimeType}` with
    /// base64 data of at most 256 KiB decoded and an `image/…` type.
    static func validate(_ image: NotificationImage, at path: @autoclosure () -> MemberPath) throws(RuleError) {
        switch (image.url, image.data) {
        case (let url?, nil):
            let lowered = url.lowercased()
            guard lowered.hasPrefix("file:") || lowered.hasPrefix("https:") else {
                throw .invalidParams("An image's url must be a file: or https: URL.", at: path().appending("url"))
            }
        case (nil, let data?):
            guard let mimeType = image.mimeType, mimeType.lowercased().hasPrefix("image/") else {
                throw .invalidParams(
                    "An image with data needs a mimeType such as image/png.",
                    at: path().appending("mimeType")
                )
            }
            guard let bytes = Data(base64Encoded: data) else {
                throw .invalidParams("An image's data must be base64.", at: path().appending("data"))
            }
            guard bytes.count <= NotificationImage.maximumDataSize else {
                throw .invalidParams(
                    "An image's data is at most 256 KiB decoded; this one is \(bytes.count) bytes.",
                    at: path().appending("data")
                )
            }
        default:
            throw .invalidParams("An image is either {url} or {data, mimeType}.", at: path())
        }
    }
}

extension Optional {
    /// Whether a value is present, read from the tag alone: `!= nil` on an optional of an
    /// Equatable compiled to Optional's `==`, and an `if let` binds, each copying the value
    /// out (for a person, a dozen retains).
    var isPresent: Bool {
        switch self {
        case .some: true
        case .none: false
        }
    }
}
