import Foundation

/// A fixed schedule as edited by the website and the API: `{"rules": [rule, …]}`.
/// The rules combine as a union; see `FixedScheduleRule` for their shapes.
public struct FixedScheduleDocument: Sendable, Hashable {
    public var rules: [FixedScheduleRule]

    public init(rules: [FixedScheduleRule]) {
        self.rules = rules
    }

    /// Decodes and validates a document; every failure is a `FixedScheduleError` with a clear message.
    public static func parse(_ json: Data) throws(FixedScheduleError) -> FixedScheduleDocument {
        do {
            return try JSONDecoder().decode(FixedScheduleDocument.self, from: json)
        } catch let error as FixedScheduleError {
            throw error
        } catch {
            throw FixedScheduleError("the schedule is not valid JSON")
        }
    }
}

extension FixedScheduleDocument: Codable {
    public init(from decoder: Decoder) throws {
        let document = try StrictJSONObject(decoder, example: #"{"rules": []}"#)
        try document.rejectUnknownKeys(allowed: ["rules"])
        guard document.has("rules") else {
            throw FixedScheduleError("the schedule is missing “rules”, e.g. {\"rules\": []}")
        }
        let container = try decoder.container(keyedBy: StrictJSONObject.Key.self)
        var list: UnkeyedDecodingContainer
        do {
            list = try container.nestedUnkeyedContainer(forKey: StrictJSONObject.Key("rules"))
        } catch {
            throw FixedScheduleError("“rules” must be a list of rules")
        }
        var rules = [FixedScheduleRule]()
        while !list.isAtEnd {
            let position = rules.count + 1
            do {
                rules.append(try list.decode(FixedScheduleRule.self))
            } catch let error as FixedScheduleError {
                throw FixedScheduleError(rule: position, error.message)
            } catch {
                throw FixedScheduleError(rule: position, "could not be read as a rule")
            }
        }
        self.rules = rules
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: StrictJSONObject.Key.self)
        try container.encode(rules, forKey: StrictJSONObject.Key("rules"))
    }
}
