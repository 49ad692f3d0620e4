import Foundation
import NIOPosix
import PostgresKit
import PostgresNIO
import SQLKit
import Vapor

/// A read nearly every participant request makes, keyed by one id (a participant's or a beep's).
///
/// On PostgreSQL it is kept prepared on each connection it runs on (`PostgresPreparedStatement`).
/// Sent unnamed, as SQLKit sends every query, it was parsed and planned afresh at each request:
/// 0.10 ms of the 0.13 ms PostgreSQL spent on the authenticator's read. The SQL is still written
/// once, as the `SQLQueryString` SQLite runs; `PreparedReadText` writes PostgreSQL's text from it.
protocol PreparedRead: PostgresPreparedStatement where Row == any SQLRow {
    /// The read of `key`, as every database runs it.
    static func query(_ key: UUID) -> SQLQueryString
    /// `PreparedReadText(query)`, kept: each conforming type declares it as a `static let`.
    static var text: PreparedReadText { get }
    var key: UUID { get }
}

extension PreparedRead {
    static var sql: String { text.sql }

    func makeBindings() throws -> PostgresBindings { try Self.text.bindings(key: key) }

    func decodeRow(_ row: PostgresRow) throws -> any SQLRow { row.sql() }
}

/// PostgreSQL's text of a `PreparedRead` and its binds, written once. The query is serialized for
/// a placeholder key, a random id no constant in it can equal; each use binds its own key in the
/// placeholder's places and the query's constants in theirs.
struct PreparedReadText: Sendable {
    let sql: String
    private let binds: [Bind]

    private enum Bind: Sendable {
        case key
        case constant(Constant)
        case unsupported(typeName: String)
    }

    /// A constant of the query. Sendable, as every bind `SQLSerializer` collects is; the cast to
    /// `PostgresEncodable` only loses sight of that.
    private struct Constant: @unchecked Sendable {
        let value: any PostgresEncodable
    }

    init(_ query: (UUID) -> SQLQueryString) {
        let placeholder = UUID()
        var serializer = SQLSerializer(database: PostgresDialectOnly())
        query(placeholder).serialize(to: &serializer)
        sql = serializer.sql
        binds = serializer.binds.map { bind in
            if let id = bind as? UUID, id == placeholder { return .key }
            if let value = bind as? any PostgresEncodable { return .constant(Constant(value: value)) }
            return .unsupported(typeName: String(describing: type(of: bind)))
        }
    }

    func bindings(key: UUID) throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: binds.count)
        for bind in binds {
            switch bind {
            case .key:
                bindings.append(key)
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
/// statement's text.
private struct PostgresDialectOnly: SQLDatabase {
    var logger: Logger { Logger(label: "momentary.prepared-read") }
    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { PostgresDialect() }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFailedFuture(Abort(.internalServerError, reason: "PostgresDialectOnly writes statements; it runs none."))
    }
}
