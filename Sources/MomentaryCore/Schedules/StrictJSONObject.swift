/// Reads one JSON object of a schedule document field by field, turning every problem into a
/// `FixedScheduleError` that names the field, e.g. “weekly.time”.
struct StrictJSONObject {
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private let container: KeyedDecodingContainer<Key>
    /// Dotted path of this object inside the rule, empty for the rule itself.
    private let path: String

    init(_ decoder: Decoder, path: String = "", example: String) throws(FixedScheduleError) {
        do {
            container = try decoder.container(keyedBy: Key.self)
        } catch {
            throw FixedScheduleError("must be a JSON object like \(example)")
        }
        self.path = path
    }

    private init(container: KeyedDecodingContainer<Key>, path: String) {
        self.container = container
        self.path = path
    }

    func field(_ key: String) -> String {
        "“\(path.isEmpty ? key : path + "." + key)”"
    }

    func has(_ key: String) -> Bool { container.contains(Key(key)) }

    /// Rejects keys outside `allowed`, which are most often typing mistakes.
    func rejectUnknownKeys(allowed: [String]) throws(FixedScheduleError) {
        for key in container.allKeys where !allowed.contains(key.stringValue) {
            let expected = allowed.map { "“\($0)”" }.joined(separator: ", ")
            throw FixedScheduleError("unknown field \(field(key.stringValue)); expected \(expected)")
        }
    }

    func object(_ key: String, example: String) throws(FixedScheduleError) -> StrictJSONObject {
        try require(key, example: example)
        do {
            let nested = try container.nestedContainer(keyedBy: Key.self, forKey: Key(key))
            return StrictJSONObject(container: nested, path: path.isEmpty ? key : path + "." + key)
        } catch {
            throw FixedScheduleError("\(field(key)) must be an object like \(example)")
        }
    }

    func string(_ key: String, example: String) throws(FixedScheduleError) -> String {
        try require(key, example: example)
        do {
            return try container.decode(String.self, forKey: Key(key))
        } catch {
            throw FixedScheduleError("\(field(key)) must be a string like \(example)")
        }
    }

    func int(_ key: String, example: String) throws(FixedScheduleError) -> Int {
        try require(key, example: example)
        do {
            return try container.decode(Int.self, forKey: Key(key))
        } catch {
            throw FixedScheduleError("\(field(key)) must be a whole number like \(example)")
        }
    }

    func strings(_ key: String, example: String) throws(FixedScheduleError) -> [String] {
        try require(key, example: example)
        do {
            return try container.decode([String].self, forKey: Key(key))
        } catch {
            throw FixedScheduleError("\(field(key)) must be a list of strings like \(example)")
        }
    }

    private func require(_ key: String, example: String) throws(FixedScheduleError) {
        guard has(key) else {
            let owner = path.isEmpty ? "the rule" : "“\(path)”"
            throw FixedScheduleError("\(owner) is missing “\(key)”, e.g. \(example)")
        }
    }
}
