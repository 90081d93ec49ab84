import Foundation

/// Decodes `Decodable` types from a `JSONValue`, turning every failure into an
/// "Invalid params" error that names the member at fault.
///
/// The error's `pointer` is the RFC 6901 pointer of that member (`pointerPrefix` followed by
/// the coding path) and its `reason` a sentence such as "`/app` must be a string, not a
/// number." A missing member points at the member itself: "`/interaction/direction` is
/// required." Errors at the root of `params` say "params" instead of a pointer.
///
/// Special cases: `JSONValue` members decode as they are (free-form content such as
/// `userInfo` passes through); `Date` reads an RFC 3339 string; integers accept any number
/// literal whose value is integral and fits (`1.0` and `1e2` are fine); `null` for an
/// optional member decodes as nil.
///
/// A type known to be `JSONDirectDecodable` where `decode` is called is first read
/// directly, which costs a fraction of `Decodable`'s way; only when that gives up is it
/// decoded through `Decodable`, so its errors are the same either way.
public struct JSONValueDecoder: Sendable {
    /// Whether `JSONDirectDecodable` types are read directly first; tests turn it off to
    /// compare the two paths.
    public var readsDirectly: Bool

    public init(readsDirectly: Bool = true) {
        self.readsDirectly = readsDirectly
    }

    public func decode<T: Decodable>(
        _ type: T.Type,
        from value: JSONValue,
        pointerPrefix: String = ""
    ) throws(RPCError) -> T {
        try decodeThroughDecodable(type, from: value, pointerPrefix: pointerPrefix)
    }

    /// Reads `value` directly when it can, else decodes it through `Decodable`.
    ///
    /// An overload rather than a dynamic cast in the method above, which cost about 2% of
    /// `donate`: callers get it where the type is statically known to conform (see
    /// `HeraldMethod.decodeParams`).
    public func decode<T: JSONDirectDecodable>(
        _ type: T.Type,
        from value: JSONValue,
        pointerPrefix: String = ""
    ) throws(RPCError) -> T {
        if readsDirectly, let decoded = try? T(directlyFrom: value) {
            return decoded
        }
        return try decodeThroughDecodable(type, from: value, pointerPrefix: pointerPrefix)
    }

    private func decodeThroughDecodable<T: Decodable>(
        _ type: T.Type,
        from value: JSONValue,
        pointerPrefix: String
    ) throws(RPCError) -> T {
        do {
            let decoder = JSONValueDecoding(value: value, path: .root, prefix: pointerPrefix)
            return try decoder.unbox(T.self, from: value, path: .root)
        } catch let error as RPCError {
            throw error
        } catch let error as DecodingError {
            throw Self.rpcError(from: error, pointerPrefix: pointerPrefix)
        } catch {
            throw RPCError(.invalidParams, reason: String(describing: error), pointer: pointerPrefix)
        }
    }

    /// The "Invalid params" error a `DecodingError` stands for.
    ///
    /// This decoder's own errors carry a finished sentence in `debugDescription`, as does a
    /// `dataCorrupted` error thrown by a type's `init(from:)`; only a missing key needs its
    /// sentence written here.
    static func rpcError(from error: DecodingError, pointerPrefix: String) -> RPCError {
        switch error {
        case .keyNotFound(let key, let context):
            let pointer = pointerPrefix + JSONPointer(codingPath: context.codingPath + [key]).description
            return .invalidParams("\(JSONPointer.subject(pointer)) is required.", at: pointer)
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let pointer = pointerPrefix + JSONPointer(codingPath: context.codingPath).description
            return .invalidParams(context.debugDescription, at: pointer)
        @unknown default:
            return .invalidParams(String(describing: error), at: pointerPrefix)
        }
    }
}

extension CodingUserInfoKey {
    /// The JSON Pointer prefix `JSONValueDecoder` was given, as a `String`, so that a type's
    /// own `init(from:)` can name the member at fault in its error sentence.
    public static let jsonPointerPrefix = CodingUserInfoKey(rawValue: "herald.jsonPointerPrefix")!
}

extension Decoder {
    /// The JSON Pointer of the value being decoded, with `JSONValueDecoder`'s prefix.
    public var jsonPointer: String {
        let prefix = userInfo[.jsonPointerPrefix] as? String ?? ""
        return prefix + JSONPointer(codingPath: codingPath).description
    }
}
