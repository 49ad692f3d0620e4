import AsyncKit
import Foundation
import NIOCore
import PostgresNIO
import SQLiteNIO

/// Whether an error means the server cannot store or read data just now (a full or failing disk,
/// a database that is down, restarting or out of connections) rather than a fault in the request
/// or the code. Such a failure answers 503 with Retry-After, so a client keeps what it has and
/// sends it again later instead of giving it up as a 500 would tell it to.
enum StorageUnavailability {
    /// Seconds a client is told to wait before trying again.
    static let retryAfterSeconds = 30

    static func covers(_ error: any Error) -> Bool {
        switch error {
        case let error as SQLiteError:
            return covers(error.reason)
        case let error as PSQLError:
            return covers(error)
        case is ConnectionPoolTimeoutError, is ConnectionPoolError:
            return true
        case let error as IOError:
            return unavailableErrnos.contains(error.errnoCode)
        case let error as ChannelError:
            if case .connectTimeout = error { return true }
            return error == .ioOnClosedChannel || error == .alreadyClosed || error == .eof
        case let error as CocoaError:
            return [.fileWriteOutOfSpace, .fileWriteVolumeReadOnly].contains(error.code)
                || (error.userInfo[NSUnderlyingErrorKey] as? any Error).map(covers) == true
        case let error as POSIXError:
            return unavailableErrnos.contains(error.code.rawValue)
        default:
            let error = error as NSError
            if error.domain == NSPOSIXErrorDomain { return unavailableErrnos.contains(Int32(error.code)) }
            return (error.userInfo[NSUnderlyingErrorKey] as? any Error).map(covers) == true
        }
    }

    /// No space, no quota, an I/O error, a read-only file system, a refused or reset connection.
    private static let unavailableErrnos: Set<Int32> = [ENOSPC, EDQUOT, EIO, EROFS, ECONNREFUSED, ECONNRESET, EPIPE, ETIMEDOUT]

    private static func covers(_ reason: SQLiteError.Reason) -> Bool {
        switch reason {
        case .full, .ioError, .busy, .locked, .cantOpen, .readOnly, .noMemory, .busyInRecovery, .busyInSnapshot, .busyTimeout,
             .lockedBySharedCache, .lockedVirtualTable, .readonlyInRecovery, .readonlyCantLock, .readonlyInRollback,
             .readonlyBackingMoved, .readonlyDirectory, .cantOpenDirectory, .cantOpenInvalidPath:
            return true
        default:
            return "\(reason)".hasPrefix("ioError")
        }
    }

    private static func covers(_ error: PSQLError) -> Bool {
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown:
            return true
        case .server:
            // SQLSTATE classes: 08 connection exception, 53 insufficient resources (disk full,
            // out of memory, too many connections), 57P operator intervention (shutting down,
            // cannot connect now), 58 system error (I/O).
            let state = error.serverInfo?[.sqlState] ?? ""
            return ["08", "53", "57P", "58"].contains { state.hasPrefix($0) }
        default:
            return false
        }
    }
}
