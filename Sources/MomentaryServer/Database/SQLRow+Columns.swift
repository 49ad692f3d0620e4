import SQLKit

extension SQLRow {
    /// The column's value, or nil where it is NULL: `decodeIfPresent` for reading a row column by
    /// column, as the reads every upload makes do (SQLKit's row `Decoder` costs more than the
    /// values it decodes).
    func decodeIfPresent<Value: Decodable>(column: String, as type: Value.Type) throws -> Value? {
        try decodeNil(column: column) ? nil : decode(column: column, as: Value.self)
    }
}
