import Foundation
import HeraldTesting
import Testing

@testable import HeraldProtocol

/// Each method's params in `Protocol/openrpc.json` against what its reader accepts.
///
/// The reader's members are learnt from the reader itself, never from a second list: each
/// of the document's examples is fed to it as it stands (it must be read), with one member
/// taken away (refused as "is required" exactly when the member is required), and with an
/// unknown member added (refused with -32602 at the member, naming the members the reader
/// asked for). The same goes for every object nested in an example that its schema closes
/// (`additionalProperties: false`); an object the schema leaves open (`userInfo`, an APNs
/// payload) must take an unknown member.
@Suite("openrpc.json's params against the readers")
struct OpenRPCParamsTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let document: JSONValue = {
        do {
            let text = try String(contentsOf: root.appendingPathComponent("Protocol/openrpc.json"), encoding: .utf8)
            return try IndependentJSON.parse(text)
        } catch {
            return .null
        }
    }()

    /// A member name no reader knows and no reader finds close to one it knows (names past
    /// 64 bytes are never typos).
    static let unknownName = String(repeating: "q", count: 70)

    static let methodNames = HeraldMethods.all.map { $0.name }

    static func documented(_ name: String) throws -> JSONValue {
        let methods = try #require(document[pointer: "/methods"]?.arrayValue)
        return try #require(methods.first { $0[pointer: "/name"]?.stringValue == name }, "\(name) in openrpc.json")
    }

    @Test("The document says unknown members are refused")
    func theDocumentSaysUnknownMembersAreRefused() throws {
        let description = try #require(Self.document[pointer: "/info/description"]?.stringValue)
        #expect(description.contains("an unknown member is -32602 naming it in data.pointer"))
        #expect(!description.contains("unknown members are ignored"))
    }

    @Test("A method's params are the members its reader asks for, required where it requires them", arguments: methodNames)
    func paramsMatchTheReader(_ name: String) throws {
        let method = try #require(HeraldMethods.all.first { $0.name == name })
        let documented = try Self.documented(name)
        let params = try #require(documented[pointer: "/params"]?.arrayValue)
        let names = Set(params.compactMap { $0[pointer: "/name"]?.stringValue })
        let required = Set(params.filter { $0[pointer: "/required"]?.boolValue == true }.compactMap { $0[pointer: "/name"]?.stringValue })
        let errors = documented[pointer: "/errors"]?.arrayValue ?? []
        #expect(
            errors.contains { $0[pointer: "/$ref"]?.stringValue == "#/components/errors/InvalidParams" },
            "\(name) lists InvalidParams among its errors: an unknown member is -32602 for every method")

        let probe = try Self.probe(method, documented)
        #expect(probe.known[""] == names, "\(name): the reader's members (left) and openrpc.json's params (right)")
        #expect(
            probe.required[""] ?? [] == required,
            "\(name): the members the reader requires (left) and openrpc.json's required params (right)")
        for (place, schema) in probe.schemas.sorted(by: { $0.key < $1.key }) where !place.isEmpty {
            let known = probe.known[place] ?? []
            let requires = probe.required[place] ?? []
            if let alternatives = schema.alternativesNames {
                // One of several shapes (an intent, an icon): the reader may know the other
                // shapes' members too, and leave "exactly one" to a rule.
                #expect(
                    schema.names.isSubset(of: known) && known.isSubset(of: alternatives),
                    "\(name) at \(place): the reader's members \(known.sorted()) hold the schema's \(schema.names.sorted()) and no member outside its alternatives"
                )
                #expect(
                    requires.isSubset(of: schema.required),
                    "\(name) at \(place): the members the reader requires \(requires.sorted()) are required by the schema \(schema.required.sorted())"
                )
            } else {
                #expect(known == schema.names, "\(name) at \(place): the reader's members (left) and the schema's properties (right)")
                #expect(
                    requires == schema.required,
                    "\(name) at \(place): the members the reader requires (left) and the schema's required (right)")
            }
        }
        for issue in probe.issues {
            Issue.record(Comment(rawValue: issue))
        }
    }

    /// Without an example that holds it, an object's members would go unchecked.
    @Test("Every closed object the params may hold is in some example")
    func everyClosedObjectIsProbed() throws {
        var met: Set<String> = []
        for method in HeraldMethods.all {
            met.formUnion(try Self.probe(method, try Self.documented(method.name)).titles)
        }
        let methods = try #require(Self.document[pointer: "/methods"]?.arrayValue)
        var reachable: Set<String> = []
        var pending = methods.flatMap { $0[pointer: "/params"]?.arrayValue ?? [] }.map { $0[pointer: "/schema"] ?? true }
        while let schema = pending.popLast() {
            switch schema {
            case .object(let object):
                if let reference = object["$ref"]?.stringValue, let name = reference.split(separator: "/").last.map(String.init),
                    !reachable.contains(name), let target = Self.document[pointer: String(reference.dropFirst())]
                {
                    reachable.insert(name)
                    pending.append(target)
                }
                pending.append(contentsOf: object.members.filter { $0.key != "$ref" }.map(\.value))
            case .array(let elements):
                pending.append(contentsOf: elements)
            default:
                break
            }
        }
        let closed = reachable.filter { Self.document[pointer: "/components/schemas/\($0)/additionalProperties"] == .bool(false) }
        #expect(closed.subtracting(met).isEmpty, "closed objects in no method's example: \(closed.subtracting(met).sorted())")
    }

    /// What `method`'s reader accepts, learnt from each of its examples in the document.
    static func probe(_ method: any HeraldMethod.Type, _ documented: JSONValue) throws -> Probe {
        let params = try #require(documented[pointer: "/params"]?.arrayValue)
        let required = Set(params.filter { $0[pointer: "/required"]?.boolValue == true }.compactMap { $0[pointer: "/name"]?.stringValue })
        let examples = try #require(documented[pointer: "/examples"]?.arrayValue)
        #expect(!examples.isEmpty, "\(method.name) has an example to read")
        var probe = Probe(method: method)
        for (index, example) in examples.enumerated() {
            var object = JSONObject()
            for param in example[pointer: "/params"]?.arrayValue ?? [] {
                object[param[pointer: "/name"]?.stringValue ?? ""] = param[pointer: "/value"] ?? .null
            }
            let schema: JSONValue = .object(
                JSONObject([
                    "type": "object", "additionalProperties": false,
                    "required": .array(required.sorted().map { .string($0) }),
                    "properties": .object(
                        JSONObject(
                            params.map { .init(key: $0[pointer: "/name"]?.stringValue ?? "", value: $0[pointer: "/schema"] ?? true) })),
                ]))
            probe.explore(.object(object), schema: schema, at: "", example: "\(method.name) example \(index)")
        }
        return probe
    }

    /// What one method's reader accepts, learnt place by place (a place is a pointer with
    /// array indices as `-`, so that `/categories/0/actions` and `/categories/1/actions`
    /// count as one).
    struct Probe {
        var method: any HeraldMethod.Type
        /// The members the reader asked for at each place, across every example.
        var known: [String: Set<String>] = [:]
        var required: [String: Set<String>] = [:]
        /// The schema of each closed object met, by place.
        var schemas: [String: ClosedSchema] = [:]
        var issues: [String] = []
        /// The titles of the schemas met.
        var titles: Set<String> = []

        init(method: any HeraldMethod.Type) {
            self.method = method
        }

        mutating func explore(_ params: JSONValue, schema: JSONValue, at pointer: String, example: String) {
            if pointer.isEmpty, let error = Self.read(method, params) {
                issues.append("\(example) is refused: \(error.reason)")
                return
            }
            guard let object = value(at: pointer, in: params)?.objectValue else { return }
            guard let schema = Self.objectSchema(schema, for: object) else {
                issues.append("\(example): no object schema at \(pointer) for \(object.keys)")
                return
            }
            if let title = schema.value[pointer: "/title"]?.stringValue { titles.insert(title) }
            let properties = schema.value[pointer: "/properties"]?.objectValue ?? JSONObject()
            guard schema.value[pointer: "/additionalProperties"]?.boolValue == false else {
                // An open object (userInfo, an APNs payload): whatever it holds is read.
                if let error = Self.read(method, insertingUnknown(at: pointer, in: params)) {
                    issues.append(
                        "\(example): \(pointer) is open in openrpc.json but the reader refuses \(error.pointer ?? ""): \(error.reason)")
                }
                exploreMembers(of: object, properties: properties, in: params, at: pointer, example: example)
                return
            }
            let place = Self.place(pointer) + (schema.alternative.map { " as \($0)" } ?? "")
            schemas[place] = ClosedSchema(
                names: Set(properties.keys),
                required: Set((schema.value[pointer: "/required"]?.arrayValue ?? []).compactMap(\.stringValue)),
                alternativesNames: schema.alternativesNames)

            // An unknown member: -32602 at it, and the reason names the members asked for.
            let unknownPointer = "\(pointer)/\(OpenRPCParamsTests.unknownName)"
            if let error = Self.read(method, insertingUnknown(at: pointer, in: params)) {
                if error.code == .invalidParams, error.pointer == unknownPointer, let names = Self.knownNames(in: error.reason) {
                    known[place, default: []].formUnion(names)
                } else {
                    issues.append(
                        "\(example): an unknown member at \(pointer) gives \(error.code.rawValue) at \(error.pointer ?? "nil"): \(error.reason)"
                    )
                }
            } else {
                issues.append("\(example): an unknown member at \(pointer) is accepted")
            }

            // Each member taken away: required exactly when the reader says so.
            for name in object.keys {
                var smaller = object
                smaller[name] = nil
                let memberPointer = "\(pointer)/\(name)"
                let error = Self.read(method, replacing(pointer, in: params, with: .object(smaller)))
                if let error, error.code == .invalidParams,
                    (error.pointer == memberPointer && error.reason.hasSuffix("is required."))
                        || error.reason.hasSuffix("did you mean `\(name)`?")
                {
                    required[place, default: []].insert(name)
                }
            }
            exploreMembers(of: object, properties: properties, in: params, at: pointer, example: example)
        }

        /// Explores the objects among `object`'s members, and the first object of each array.
        private mutating func exploreMembers(
            of object: JSONObject, properties: JSONObject, in params: JSONValue, at pointer: String, example: String
        ) {
            for name in object.keys {
                let memberPointer = "\(pointer)/\(name)"
                let memberSchema = properties[name] ?? true
                let child = object[name] ?? .null
                if child.objectValue != nil {
                    explore(params, schema: memberSchema, at: memberPointer, example: example)
                } else if let first = child.arrayValue?.first, first.objectValue != nil,
                    let items = Self.resolve(memberSchema)[pointer: "/items"]
                {
                    explore(params, schema: items, at: "\(memberPointer)/0", example: example)
                }
            }
        }

        private func insertingUnknown(at pointer: String, in params: JSONValue) -> JSONValue {
            guard var object = value(at: pointer, in: params)?.objectValue else { return params }
            object[OpenRPCParamsTests.unknownName] = true
            return replacing(pointer, in: params, with: .object(object))
        }

        private func value(at pointer: String, in params: JSONValue) -> JSONValue? {
            pointer.isEmpty ? params : params[pointer: pointer]
        }

        /// `params` with the value at `pointer` replaced.
        private func replacing(_ pointer: String, in params: JSONValue, with value: JSONValue) -> JSONValue {
            Self.replacing(Array(pointer.split(separator: "/").map(String.init)), in: params, with: value)
        }

        private static func replacing(_ tokens: [String], in params: JSONValue, with value: JSONValue) -> JSONValue {
            guard let token = tokens.first else { return value }
            let rest = Array(tokens.dropFirst())
            switch params {
            case .object(var object):
                object[token] = replacing(rest, in: object[token] ?? .null, with: value)
                return .object(object)
            case .array(var array):
                guard let index = Int(token), array.indices.contains(index) else { return params }
                array[index] = replacing(rest, in: array[index], with: value)
                return .array(array)
            default:
                return params
            }
        }

        /// The RPCError reading `params` throws, nil when they are read.
        static func read(_ method: any HeraldMethod.Type, _ params: JSONValue) -> RPCError? {
            func read<Method: HeraldMethod>(_ method: Method.Type) -> RPCError? {
                do throws(RPCError) {
                    _ = try Method.decodeParams(params)
                    return nil
                } catch {
                    return error
                }
            }
            return read(method)
        }

        /// The names in "… is not a known member; the members are a, b." (or "this object
        /// takes no members.").
        static func knownNames(in reason: String) -> Set<String>? {
            if reason.hasSuffix("; this object takes no members.") { return [] }
            guard let range = reason.range(of: "; the members are "), reason.hasSuffix(".") else { return nil }
            return Set(reason[range.upperBound...].dropLast().components(separatedBy: ", "))
        }

        /// `/categories/0/actions/0/icon` as `/categories/-/actions/-/icon`.
        static func place(_ pointer: String) -> String {
            pointer.split(separator: "/", omittingEmptySubsequences: false)
                .map { $0.allSatisfy(\.isNumber) && !$0.isEmpty ? "-" : String($0) }
                .joined(separator: "/")
        }

        struct ClosedSchema {
            var names: Set<String>
            var required: Set<String>
            /// When the schema is one of several alternatives: the members of them all.
            var alternativesNames: Set<String>?
        }

        /// A schema with its `$ref` followed.
        static func resolve(_ schema: JSONValue) -> JSONValue {
            var schema = schema
            while let reference = schema[pointer: "/$ref"]?.stringValue, reference.hasPrefix("#"),
                let target = OpenRPCParamsTests.document[pointer: String(reference.dropFirst())]
            {
                schema = target
            }
            return schema
        }

        /// The object schema that describes `object`: the schema itself when it lists
        /// properties (an `anyOf` beside them only adds constraints), else the one of its
        /// `oneOf`/`anyOf` alternatives whose properties hold the object's members and whose
        /// `type` (a const or a one-value enum) is the object's.
        static func objectSchema(_ schema: JSONValue, for object: JSONObject) -> ObjectSchema? {
            let schema = resolve(schema)
            if schema[pointer: "/properties"] != nil { return ObjectSchema(value: schema) }
            let alternatives = (schema[pointer: "/oneOf"] ?? schema[pointer: "/anyOf"])?.arrayValue.map { $0.map(resolve) } ?? []
            let fitting = alternatives.filter { alternative in
                guard let properties = alternative[pointer: "/properties"]?.objectValue else { return false }
                guard object.keys.allSatisfy({ properties[$0] != nil }) else { return false }
                guard let type = object["type"]?.stringValue else { return true }
                let typeSchema = resolve(properties["type"] ?? true)
                let allowed = typeSchema[pointer: "/const"].map { [$0] } ?? typeSchema[pointer: "/enum"]?.arrayValue
                return allowed?.contains(.string(type)) ?? true
            }
            guard !alternatives.isEmpty else { return ObjectSchema(value: schema) }
            guard fitting.count == 1, let index = alternatives.firstIndex(of: fitting[0]) else { return nil }
            let shapes = alternatives.compactMap { $0[pointer: "/properties"]?.objectValue }
            // An object or null (set-focus's focus) is no choice between shapes.
            guard shapes.count > 1 else { return ObjectSchema(value: fitting[0]) }
            let names = shapes.flatMap(\.keys)
            return ObjectSchema(
                value: fitting[0], alternative: fitting[0][pointer: "/title"]?.stringValue ?? "alternative \(index)",
                alternativesNames: Set(names))
        }

        /// The schema of an object, and which alternative it is when it is one.
        struct ObjectSchema {
            var value: JSONValue
            var alternative: String?
            var alternativesNames: Set<String>?
        }
    }
}
