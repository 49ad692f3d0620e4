import Foundation

/// A configuration problem, described in one sentence that says what to change.
public enum ConfigurationError: Error, Equatable, CustomStringConvertible {
    case dataDirectoryUnusable(path: String, reason: String)
    case malformedDatabaseURL(reason: String)
    case invalidValue(variable: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .dataDirectoryUnusable(let path, let reason):
            "The data directory \(path) cannot be used because \(reason); choose another with --data or MOMENTARY_DATA_DIR."
        case .malformedDatabaseURL(let reason):
            "DATABASE_URL is malformed because \(reason); expected postgres://user:password@host:5432/database."
        case .invalidValue(let variable, let value, let expected):
            "\(variable) is “\(value)”, but it must be \(expected)."
        }
    }
}
