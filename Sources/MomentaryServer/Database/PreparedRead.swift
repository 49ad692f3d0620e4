import Foundation
import NIOPosix
import PostgresKit
import PostgresNIO
import SQLKit
import Vapor

/// A read nearly every participant request makes, keyed by one id (a participant's or a beep's).
///
/// On SQLite it runs in place for one key (`query(SQLBind(key))`). On PostgreSQL it runs for the
/// keys of every request waiting at that moment in one statement (`ReadCoalescer`), kept prepared
/// on each connection it runs on (`PreparedReadBatch`). Sent unnamed, as SQLKit sends every query,
/// it was parsed and planned afresh at each request (most of what PostgreSQL spent on the
/// authenticator's read); sent one key a statement, each request paid a round trip's work in the
/// server and in PostgreSQL (figures: BENCHMARKS.md, `momentary-bench ingest`). The SQL is still
/// written once, as the query of one key; `PreparedReadText` writes PostgreSQL's text for many keys
/// from it.
protocol PreparedRead: Sendable {
    /// The prepared statement's name on each PostgreSQL connection.
    static var name: String { get }
    /// The read of one key, as every database runs it: `key` is a bind of the key on SQLite, and
    /// a column of the keys being read on PostgreSQL. It reads at most a few rows for a key.
    static func query(_ key: any SQLExpression) -> SQLQueryString
    /// `PreparedReadText(query)`, kept: each conforming type declares it as a `static let`.
    static var text: PreparedReadText { get }
    var key: UUID { get }
}

/// PostgreSQL's statement of a `PreparedRead` for many keys at once: each row is one of a key's
/// rows, with the key beside it (`PreparedReadText.keyColumn`).
struct PreparedReadBatch<Read: PreparedRead>: PostgresPreparedStatement {
    typealias Row = any SQLRow
    static var name: String { Read.name }
    static var sql: String { Read.text.sql }

    let keys: [UUID]

    func makeBindings() throws -> PostgresBindings { try Read.text.bindings(keys: keys) }

    func decodeRow(_ row: PostgresRow) throws -> any SQLRow { row.sql() }
}

/// PostgreSQL's text of a `PreparedRead` for many keys, and its binds, written once: the read of
/// one key is joined laterally to the array of keys, so each key's rows are found as the read of
/// that key alone finds them. The array is serialized as a placeholder, one random id no constant
/// of the query can equal; each use binds its keys in the placeholder's place and the query's
/// constants in theirs.
struct PreparedReadText: Sendable {
    /// The column of each row that names the key it was read for.
    static let keyColumn = "momentary_read_key"

    let sql: String
    private let binds: [Bind]

    private enum Bind: Sendable {
        case keys
        case constant(Constant)
        case unsupported(typeName: String)
    }

    /// A constant of the query. Sendable, as every bind `SQLSerializer` collects is; the cast to
    /// `PostgresEncodable` only loses sight of that.
    private struct Constant: @unchecked Sendable {
        let value: any PostgresEncodable
    }

    init(_ query: (any SQLExpression) -> SQLQueryString) {
        let placeholder = [UUID()]
        let batch: SQLQueryString = """
            SELECT read_keys.id AS \(ident: Self.keyColumn), found.* FROM unnest(\(bind: placeholder)::UUID[]) AS read_keys(id)
            CROSS JOIN LATERAL (\(query(SQLColumn("id", table: "read_keys")))) AS found
            """
        var serializer = SQLSerializer(database: PostgresDialectOnly())
        batch.serialize(to: &serializer)
        sql = serializer.sql
        binds = serializer.binds.map { bind in
            if let keys = bind as? [UUID], keys == placeholder { return .keys }
            if let value = bind as? any PostgresEncodable { return .constant(Constant(value: value)) }
            return .unsupported(typeName: String(describing: type(of: bind)))
        }
    }

    func bindings(keys: [UUID]) throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: binds.count)
        for bind in binds {
            switch bind {
            case .keys:
                bindings.append(keys)
            case .constant(let constant):
                try bindings.append(constant.value)
            case .unsupported(let typeName):
                throw Abort(.internalServerError, reason: "A prepared read binds a \(typeName), which PostgresNIO cannot encode.")
            }
        }
        return bindings
    }
}

/// PostgreSQL's dialect with no connection behind it: all `SQLSerializer` needs to write a
/// statement's text (of a `PreparedRead`, or of another statement kept prepared).
struct PostgresDialectOnly: SQLDatabase {
    var logger: Logger { Logger(label: "momentary.prepared-read") }
    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { PostgresDialect() }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFailedFuture(Abort(.internalServerError, reason: "PostgresDialectOnly writes statements; it runs none."))
    }
}
