import Foundation
import Vapor
import FluentPostgresDriver

/// Turns the errors that can end start-up (network, database) into one sentence that says what to do.
enum StartupErrorDescription {
    static func sentence(for error: any Error) -> String {
        if let io = error as? IOError {
            switch io.errnoCode {
            case EADDRINUSE: return "The port is already in use by another program; choose another with --port."
            case EACCES: return "Permission denied while opening a socket or file; use a port above 1023 or another directory."
            case EADDRNOTAVAIL: return "That host name or address does not belong to this machine; check --hostname."
            default: return "A system call failed: \(io.description)."
            }
        }
        if let postgres = error as? PSQLError {
            switch postgres.code {
            case .connectionError, .unexpectedBackendMessage, .serverClosedConnection:
                return "Could not connect to the PostgreSQL server named by DATABASE_URL; check that it is running and reachable."
            default:
                if let message = postgres.serverInfo?[.message] {
                    return "PostgreSQL refused the request: \(message)."
                }
                return "PostgreSQL failed: \(String(describing: postgres.code))."
            }
        }
        let text = String(describing: error)
        if text.localizedCaseInsensitiveContains("connection refused") || text.localizedCaseInsensitiveContains("connect(descriptor") {
            return "Could not connect to the database server; check that it is running and reachable."
        }
        return text.hasSuffix(".") ? text : text + "."
    }
}
