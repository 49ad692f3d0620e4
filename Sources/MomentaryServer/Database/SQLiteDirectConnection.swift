import FluentKit
import Foundation
import Logging
import NIOCore
import SQLKit
import SQLiteKit
import SQLiteNIO
import VaporCSQLite

/// A connection to the SQLite file used synchronously on the calling thread: the response writer's
/// own (on the writer's thread) and those of `SQLiteReadConnections`. SQLiteNIO runs every
/// statement on a thread pool and answers on an event loop: two thread wake-ups a statement, which
/// on two busy cores took far longer than SQLite itself needs for a statement such as BEGIN
/// (figures: BENCHMARKS.md, `momentary-bench ingest`). A batch runs six such statements between its
/// requests' arrival and their answers. Here a batch runs from BEGIN to COMMIT on one thread
/// without waiting for any other, and statements are prepared once and kept (a batch's text repeats
/// for each size).
///
/// It is the same SQLite library, file and settings as Fluent's connections (SQLiteNIO's vendored
/// copy, so locks are shared correctly within the process; foreign keys on; a locked database
/// waited for; synchronous FULL, SQLite's default, so a commit is on disk when it returns).
/// Not for concurrent use: the writer's executor runs one job at a time, and the read connections
/// are lent to one caller at a time.
final class SQLiteDirectConnection: SQLDatabase, @unchecked Sendable {
    let logger: Logger
    let eventLoop: any EventLoop
    var dialect: any SQLDialect { SQLiteDialect() }

    private var handle: OpaquePointer?
    private var prepared: [String: OpaquePointer] = [:]
    private let encoder = SQLiteDataEncoder()
    /// Prepared statements kept; a batch's statements differ only in their number of rows.
    private static let preparedLimit = 256

    init(path: String, logger: Logger, eventLoop: any EventLoop) throws {
        self.logger = logger
        self.eventLoop = eventLoop
        let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_URI | SQLITE_OPEN_EXRESCODE
        let opened = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        guard opened == SQLITE_OK else {
            let error = SQLiteDirectError(code: opened, message: "Could not open the SQLite database at \(path).")
            sqlite_nio_sqlite3_close(handle)
            handle = nil
            throw error
        }
        // As SQLiteNIO's connections do, wait for a lock held by another connection however long
        // it is held, but asleep: a millisecond between tries once the first few have failed.
        sqlite_nio_sqlite3_busy_handler(handle, { _, tries in
            if tries >= 10 { sqlite_nio_sqlite3_sleep(1) }
            return 1
        }, nil)
        try run(SQLRaw("PRAGMA foreign_keys = ON"))
        // Statement journals (a batch's multi-row INSERT keeps one, to undo just that statement
        // if it fails) in memory: past 64 KiB SQLite moves them to a temporary file, which cost a
        // batch a file opened and written each time. Nothing in them is needed after a crash.
        try run(SQLRaw("PRAGMA temp_store = MEMORY"))
    }

    deinit { close() }

    func close() {
        for statement in prepared.values { sqlite_nio_sqlite3_finalize(statement) }
        prepared = [:]
        if let handle { sqlite_nio_sqlite3_close(handle) }
        handle = nil
    }

    /// Runs a statement, discarding any rows.
    func run(_ statement: any SQLExpression) throws {
        try step(statement) { _ in }
    }

    /// Runs a statement and decodes its rows.
    func all<Row: Decodable>(_ statement: any SQLExpression, decoding: Row.Type) throws -> [Row] {
        try rows(statement).map { try $0.decode(model: Row.self) }
    }

    /// Runs a statement and returns its rows as read.
    func rows(_ statement: any SQLExpression) throws -> [SQLiteDirectRow] {
        var rows: [SQLiteDirectRow] = []
        try step(statement) { rows.append($0) }
        return rows
    }

    // SQLDatabase, so SQLKit can serialize for this connection (and run what it builds).
    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        do {
            try step(query, onRow)
            return eventLoop.makeSucceededVoidFuture()
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) async throws {
        try step(query, onRow)
    }

    /// Runs a statement and hands each row to `onRow` to read by position: no column names are
    /// made, for readers that know their SELECT list (the exports, a page of thousands of rows).
    func forEachRow(_ query: any SQLExpression, _ onRow: (SQLiteDirectValues) throws -> Void) throws {
        try stepRows(query) { statement in try onRow(SQLiteDirectValues(statement: statement)) }
    }

    private func step(_ query: any SQLExpression, _ onRow: (SQLiteDirectRow) throws -> Void) throws {
        var columns: [String]?
        try stepRows(query) { statement in
            let names = columns ?? (0..<sqlite_nio_sqlite3_column_count(statement)).map {
                String(cString: sqlite_nio_sqlite3_column_name(statement, $0))
            }
            columns = names
            let values = SQLiteDirectValues(statement: statement)
            try onRow(SQLiteDirectRow(columns: names, values: names.indices.map { values[$0] }))
        }
    }

    /// Binds and steps `query`, calling `onRow` with the statement at each row.
    private func stepRows(_ query: any SQLExpression, _ onRow: (OpaquePointer) throws -> Void) throws {
        guard let handle else { throw SQLiteDirectError(code: SQLITE_MISUSE, message: "The SQLite connection is closed.") }
        var serializer = SQLSerializer(database: self)
        query.serialize(to: &serializer)
        let statement = try statement(for: serializer.sql, on: handle)
        // Reset, but bindings are not cleared: each use binds every parameter again, and clearing
        // them expires a statement whose plan consulted a bound value (SQLite notes that for an
        // equality it filters on, or a LIMIT), so it was compiled again at every use.
        defer { sqlite_nio_sqlite3_reset(statement) }
        for (index, value) in serializer.binds.enumerated() {
            try check(bind(try encoder.encode(value), at: Int32(index + 1), to: statement), on: handle)
        }
        while true {
            let result = sqlite_nio_sqlite3_step(statement)
            if result == SQLITE_DONE { return }
            guard result == SQLITE_ROW else { throw error(result, on: handle) }
            try onRow(statement)
        }
    }

    private func statement(for text: String, on handle: OpaquePointer) throws -> OpaquePointer {
        if let statement = prepared[text] { return statement }
        var statement: OpaquePointer?
        let result = sqlite_nio_sqlite3_prepare_v3(handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else { throw error(result, on: handle) }
        if prepared.count >= Self.preparedLimit {
            for old in prepared.values { sqlite_nio_sqlite3_finalize(old) }
            prepared = [:]
        }
        prepared[text] = statement
        return statement
    }

    private func bind(_ value: SQLiteData, at index: Int32, to statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let integer): sqlite_nio_sqlite3_bind_int64(statement, index, Int64(integer))
        case .float(let double): sqlite_nio_sqlite3_bind_double(statement, index, double)
        case .text(let text): sqlite_nio_sqlite3_bind_text64(statement, index, text, UInt64(text.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
        case .blob(let bytes):
            bytes.withUnsafeReadableBytes { sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), Self.transient) }
        case .null: sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }

    private func check(_ result: Int32, on handle: OpaquePointer) throws {
        guard result == SQLITE_OK else { throw error(result, on: handle) }
    }

    private func error(_ result: Int32, on handle: OpaquePointer) -> SQLiteDirectError {
        SQLiteDirectError(code: result, message: String(cString: sqlite_nio_sqlite3_errmsg(handle)))
    }

    /// SQLite copies bound text and blobs before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// The current row of a statement being stepped, by position; valid only inside the callback.
struct SQLiteDirectValues {
    fileprivate let statement: OpaquePointer

    var count: Int { Int(sqlite_nio_sqlite3_column_count(statement)) }

    subscript(_ index: Int) -> SQLiteData {
        let column = Int32(index)
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT: return .float(sqlite_nio_sqlite3_column_double(statement, column))
        case SQLITE_TEXT: return sqlite_nio_sqlite3_column_text(statement, column).map { .text(String(cString: $0)) } ?? .null
        case SQLITE_BLOB:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            if let bytes = sqlite_nio_sqlite3_column_blob(statement, column) {
                buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: count))
            }
            return .blob(buffer)
        default: return .null
        }
    }
}

/// A row as `SQLiteDirectConnection` read it, decoded as SQLiteKit decodes its own rows.
struct SQLiteDirectRow: SQLRow {
    let columns: [String]
    let values: [SQLiteData]

    var allColumns: [String] { columns }

    func contains(column: String) -> Bool { columns.contains(column) }

    func decodeNil(column: String) throws -> Bool {
        if case .null = try value(column) { return true }
        return false
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        try SQLiteDataDecoder().decode(D.self, from: try value(column))
    }

    private func value(_ column: String) throws -> SQLiteData {
        guard let index = columns.firstIndex(of: column) else {
            throw DecodingError.keyNotFound(SQLCodingKey(stringValue: column), .init(codingPath: [], debugDescription: "No column \(column)."))
        }
        return values[index]
    }
}

/// A failure SQLite reported to a direct connection, classified as Fluent's errors are.
struct SQLiteDirectError: Error, DatabaseError, CustomStringConvertible {
    let code: Int32
    let message: String

    /// Extended result codes keep the primary code in their low byte.
    private var primaryCode: Int32 { code & 0xff }
    var isConstraintFailure: Bool { primaryCode == SQLITE_CONSTRAINT }
    var isSyntaxError: Bool { primaryCode == SQLITE_ERROR && message.contains("syntax error") }
    var isConnectionClosed: Bool { primaryCode == SQLITE_MISUSE || primaryCode == SQLITE_CANTOPEN }
    var description: String { "SQLite error \(code): \(message)" }
}

private struct SQLCodingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
