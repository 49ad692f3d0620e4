import Foundation

/// JSON Merge Patch (RFC 7396): how one JSON document differs from another, written as the keys
/// that differ. An object in the patch is merged key by key into the document, a `null` member
/// removes that key, any other value replaces. Momentary keeps what an imported file says beyond
/// what it stores as such a patch over what it would write itself: readable (the file's own keys
/// and values) and no larger than the difference.
///
/// The format's one limit: a `null` in the target document cannot be told from a removal, so a
/// member that is `null` comes back absent.
public enum JSONMergePatch {
    /// The patch that turns `base` (nil: nothing) into `target`; nil when they are equal.
    public static func difference(from base: JSONValue?, to target: JSONValue) -> JSONValue? {
        if base == target { return nil }
        guard case .object(let targetMembers) = target, case .object(let baseMembers)? = base else { return target }
        var patch: [String: JSONValue] = [:]
        for (key, value) in targetMembers {
            if let member = difference(from: baseMembers[key], to: value) { patch[key] = member }
        }
        for key in baseMembers.keys where targetMembers[key] == nil {
            patch[key] = .null
        }
        return patch.isEmpty ? nil : .object(patch)
    }

    /// `base` with `patch` merged in.
    public static func apply(_ patch: JSONValue, to base: JSONValue?) -> JSONValue {
        guard case .object(let patchMembers) = patch else { return patch }
        var members = base?.objectValue ?? [:]
        for (key, value) in patchMembers {
            if value == .null {
                members.removeValue(forKey: key)
            } else {
                members[key] = apply(value, to: members[key])
            }
        }
        return .object(members)
    }
}
