import Foundation

/// One file of the Reporter app: a day's `YYYY-MM-DD-reporter-export.json` (seed 002) or the full
/// export `reporter-export.json`, the same shape with every day's snapshots. Snapshots are in the
/// order they were entered; later versions add the `questions` the app asked. Momentary writes
/// these for a participant's local days and reads them to bring a Reporter user's history into a study.
public struct ReporterDay: Codable, Sendable, Hashable {
    public var questions: [ReporterQuestion]?
    public var snapshots: [ReporterSnapshot]

    public init(questions: [ReporterQuestion]? = nil, snapshots: [ReporterSnapshot]) {
        self.questions = questions
        self.snapshots = snapshots
    }

    static let fileNameSuffix = "-reporter-export.json"
    /// The full export's name: every day in one file.
    public static let fullExportFileName = "reporter-export.json"

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

/// A question of the `questions` list: its prompt and its type (0 tokens, 1 multiple choice,
/// 2 yes/no, 3 location, 4 people, 5 number, 6 note; datums' codec). Other keys are not read.
public struct ReporterQuestion: Codable, Sendable, Hashable {
    public var prompt: String
    public var questionType: Int?

    public init(prompt: String, questionType: Int?) {
        self.prompt = prompt
        self.questionType = questionType
    }

    /// The answer shape this type of question is answered in, when the type is known.
    public var shapeName: String? {
        switch questionType {
        case 0?, 4?: "tokens"
        case 1?, 2?: "answeredOptions"
        case 3?: "locationResponse"
        case 5?: "numericResponse"
        case 6?: "textResponse"
        default: nil
        }
    }
}
