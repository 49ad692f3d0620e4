import Foundation

/// A JSON object exactly as it was read, kept beside the model read from it, so a document that
/// nobody changed is written back as the same JSON value: `"display_if": null`, `"max": "5"` and a
/// missing `step` stay as they were instead of becoming what the model would write.
///
/// It never takes part in equality or hashing: two questions that mean the same are equal however
/// they were written. Whether the model was changed since it was read is decided by reading the
/// kept object again and comparing (`unchanged(_:read:)`).
public struct KeptJSON: Sendable, Hashable {
    public let object: [String: JSONValue]?

    public init(_ object: [String: JSONValue]? = nil) {
        self.object = object
    }

    public static func == (lhs: KeptJSON, rhs: KeptJSON) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}

    /// The kept object when reading it again gives `current`; nil when there is none or the
    /// model has been changed since (then the model's own writing is the truth).
    func unchanged<Model: Equatable>(_ current: Model, read: ([String: JSONValue]) throws -> Model) -> [String: JSONValue]? {
        guard let object, let again = try? read(object), again == current else { return nil }
        return object
    }
}
