import Foundation
import NIOCore
import PostgresNIO
import SQLKit

/// One column of a batch insert with its values, one a row: written as a bound value per row on
/// SQLite (a multi-row VALUES) and as one array on PostgreSQL (`unnest`, see `PostgresPreparedInsert`).
struct InsertColumn: Sendable {
    let name: String
    /// PostgreSQL's array type, for the cast in the statement's text: that of the values' type,
    /// so the text cannot disagree with the array encoded.
    let postgresArrayType: String
    let count: Int
    private let appendArray: @Sendable (inout PostgresBindings) -> Void
    private let rowValue: @Sendable (Int) -> any SQLExpression

    init<Value: PostgresArrayEncodable & PostgresNonThrowingEncodable & Encodable & Sendable>(
        _ name: String, _ values: [Value]
    ) {
        self.name = name
        postgresArrayType = "\(Value.psqlArrayType)"
        count = values.count
        appendArray = { $0.append(values) }
        rowValue = { SQLBind(values[$0]) }
    }

    /// A column that may hold NULL: SQL `NULL` on SQLite (as Fluent writes an absent optional
    /// field), a NULL element of the array on PostgreSQL.
    init<Value: PostgresArrayEncodable & PostgresNonThrowingEncodable & Encodable & Sendable>(
        _ name: String, _ values: [Value?]
    ) {
        self.name = name
        postgresArrayType = "\(Value.psqlArrayType)"
        count = values.count
        appendArray = { $0.append(PostgresArrayWithNulls(values)) }
        rowValue = { values[$0].map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null }
    }

    func append(to bindings: inout PostgresBindings) { appendArray(&bindings) }

    func value(at row: Int) -> any SQLExpression { rowValue(row) }
}

/// The rows of one table's batch insert, column by column.
struct InsertColumns: Sendable {
    let table: String
    let columns: [InsertColumn]

    var rowCount: Int { columns.first?.count ?? 0 }

    /// PostgreSQL's statement: the same text for any number of rows, so it is prepared once.
    var postgresText: String {
        let arrays = columns.enumerated().map { "$\($0.offset + 1)::\($0.element.postgresArrayType)" }
        return "INSERT INTO \(table) (\(columns.map(\.name).joined(separator: ", "))) SELECT * FROM unnest(\(arrays.joined(separator: ", ")))"
    }

    /// SQLite's statements: multi-row VALUES, `rowsPerStatement` rows each.
    func valuesStatements(on sql: any SQLDatabase, rowsPerStatement: Int) -> [any SQLExpression] {
        stride(from: 0, to: rowCount, by: rowsPerStatement).map { start in
            let insert = sql.insert(into: table).columns(columns.map(\.name))
            for row in start..<min(rowCount, start + rowsPerStatement) {
                insert.values(columns.map { $0.value(at: row) })
            }
            return insert.query
        }
    }
}

/// An array whose elements may be NULL, which PostgresNIO's own array encoding cannot write.
/// PostgreSQL's binary array: dimensions, a has-NULLs flag, the element type, the length and
/// lower bound of the one dimension, then each element's byte count (-1 for NULL) and bytes.
struct PostgresArrayWithNulls<Element: PostgresArrayEncodable & PostgresNonThrowingEncodable>: PostgresNonThrowingEncodable {
    let elements: [Element?]

    init(_ elements: [Element?]) { self.elements = elements }

    static var psqlType: PostgresDataType { Element.psqlArrayType }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        let hasNulls: Int32 = elements.contains(where: { $0 == nil }) ? 1 : 0
        buffer.writeMultipleIntegers(Int32(elements.isEmpty ? 0 : 1), hasNulls, Element.psqlType.rawValue)
        guard !elements.isEmpty else { return }
        buffer.writeMultipleIntegers(Int32(elements.count), Int32(1))
        for element in elements {
            guard let element else {
                buffer.writeInteger(Int32(-1))
                continue
            }
            let lengthIndex = buffer.writerIndex
            buffer.writeInteger(Int32(0))
            element.encode(into: &buffer, context: context)
            buffer.setInteger(Int32(buffer.writerIndex - lengthIndex - 4), at: lengthIndex)
        }
    }
}

/// A table the response writer inserts into in batches, with its statement on PostgreSQL.
protocol PreparedInsert {
    /// The prepared statement's name on each connection.
    static var statementName: String { get }
    /// `InsertColumns.postgresText` of the table, written once.
    static var postgresText: String { get }
}

/// A batch insert on PostgreSQL: one statement whose text is the same for any number of rows,
/// kept prepared on the writer's connection. A multi-row VALUES differs in text with its row
/// count, so PostgreSQL parsed and planned it at every batch, and the server wrote a bind a value.
struct PostgresPreparedInsert<Table: PreparedInsert>: PostgresPreparedStatement {
    typealias Row = ()
    static var name: String { Table.statementName }
    static var sql: String { Table.postgresText }

    let columns: InsertColumns

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: columns.columns.count)
        for column in columns.columns { column.append(to: &bindings) }
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws {}
}
