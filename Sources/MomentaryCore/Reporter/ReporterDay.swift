import Foundation

/// One `YYYY-MM-DD-reporter-export.json` file of the Reporter app (seed 002): the day's snapshots
/// in the order they were entered. Momentary writes these for a participant's local days and reads
/// them to bring a Reporter user's history into a study.
public struct ReporterDay: Codable, Sendable, Hashable {
    public var snapshots: [ReporterSnapshot]

    public init(snapshots: [ReporterSnapshot]) {
        self.snapshots = snapshots
    }

    static let fileNameSuffix = "-reporter-export.json"

    /// The file name Reporter gives a day: `2014-02-28-reporter-export.json`.
    public static func fileName(for day: LocalDate) -> String {
        "\(day)\(fileNameSuffix)"
    }

    /// The day a Reporter file name stands for, or nil when the name is not one Reporter writes.
    public static func day(fromFileName name: String) -> LocalDate? {
        guard name.hasSuffix(fileNameSuffix) else { return nil }
        let date = name.dropLast(fileNameSuffix.count)
        guard date.count == 10 else { return nil }
        return LocalDate(String(date))
    }

    /// Reads a file's bytes; a problem names the file and the field (`snapshots[2].date`).
    public static func decode(_ data: Data, fileName: String) throws(ReporterFormatError) -> ReporterDay {
        do {
            return try JSONDecoder().decode(ReporterDay.self, from: data)
        } catch let error as ReporterFormatError {
            throw error
        } catch let error as DecodingError {
            throw ReporterFormatError(fileName: fileName, decodingError: error)
        } catch {
            throw ReporterFormatError(fileName: fileName, field: "", message: "is not a Reporter file: \(error.localizedDescription)")
        }
    }

    /// The file's bytes: pretty-printed JSON with sorted keys, so equal days are equal files.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// Why a Reporter file could not be read: the file, the field's path and what is wrong with it.
public struct ReporterFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    public let fileName: String
    /// The path of the field, such as `snapshots[2].responses[0].tokens`; empty for the whole file.
    public let field: String
    public let message: String

    public init(fileName: String, field: String, message: String) {
        self.fileName = fileName
        self.field = field
        self.message = message
    }

    public var description: String {
        field.isEmpty ? "\(fileName): \(message)" : "\(fileName): \(field) \(message)"
    }

    init(fileName: String, decodingError: DecodingError) {
        switch decodingError {
        case .typeMismatch(let type, let context):
            self.init(fileName: fileName, field: Self.path(context.codingPath), message: "should be \(Self.describe(type)). \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            self.init(fileName: fileName, field: Self.path(context.codingPath), message: "is missing: \(Self.describe(type)) expected.")
        case .keyNotFound(let key, let context):
            self.init(fileName: fileName, field: Self.path(context.codingPath + [key]), message: "is missing.")
        case .dataCorrupted(let context):
            let field = Self.path(context.codingPath)
            self.init(fileName: fileName, field: field, message: field.isEmpty ? "is not valid JSON." : context.debugDescription)
        @unknown default:
            self.init(fileName: fileName, field: "", message: "could not be read.")
        }
    }

    /// `snapshots[2].responses[0].tokens` from a decoder's coding path.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(into: "") { path, key in
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Double.Type, is Int.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "a list"
        default: "\(type)"
        }
    }
}
