import Foundation
import SQLiteNIO

/// UUIDs to and from SQLite as the text SQLiteKit already stores (`uuidString`: 36 characters,
/// upper case). Without this conformance SQLiteKit reaches that text through a nested `Encoder`
/// and `Decoder` made for each value, and a batch of answers binds about 25 ids a response.
/// Strings that are not UUIDs decode to nothing, which SQLiteKit reports as a type mismatch.
extension UUID: @retroactive SQLiteDataConvertible {
    public init?(sqliteData: SQLiteData) {
        guard case .text(let text) = sqliteData, let uuid = UUID(uuidString: text) else { return nil }
        self = uuid
    }

    public var sqliteData: SQLiteData? {
        .text(uuidString)
    }
}
