/// A request body that decoded but breaks a rule of the contract. The server answers it as
/// `APIErrorBody(code: error.code, message: error.message)` with `code.httpStatus`.
public struct APIValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: APIErrorCode
    /// The offending field as a JSON path, e.g. `context.location.latitude`.
    public var field: String
    public var message: String

    public init(code: APIErrorCode = .validationFailed, field: String, message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String { message }
}
