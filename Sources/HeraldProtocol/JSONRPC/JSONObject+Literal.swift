extension JSONObject: ExpressibleByDictionaryLiteral {
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { Member(key: $0.0, value: $0.1) })
    }
}
