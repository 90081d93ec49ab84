import HeraldProtocol

/// The rule for an app's name: reverse-DNS such as `org.example.chat`, 1–255 characters
/// of ASCII letters, digits, `.`, `-` and `_`.
///
/// Data is namespaced by (uid, app), so the name is checked before anything else.
enum AppName {
    static let maximumLength = 255

    static func isValid(_ name: String) -> Bool {
        var name = name
        // Over the contiguous bytes, as ``ContentDigest/of(_:)`` reads a text.
        return name.withUTF8 { bytes in
            !bytes.isEmpty && bytes.count <= maximumLength && bytes.allSatisfy(isAllowed)
        }
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    /// Throws invalid params at `path` unless `name` is a valid app name.
    static func validate(_ name: String, at path: @autoclosure () -> MemberPath = ["app"]) throws(RuleError) {
        guard isValid(name) else {
            throw .invalidParams(
                "An app name is 1–255 characters of letters, digits, '.', '-' and '_', such as org.example.chat.",
                at: path()
            )
        }
    }
}

extension HeraldState {
    /// Throws invalid params at `app` unless `name` is a valid app name: for the protocol
    /// layer, which reads an `update-content` payload before the rules run yet must report
    /// a bad app name first, as the rules do.
    package static func checkAppName(_ name: String) throws(RuleError) {
        try AppName.validate(name)
    }
}
