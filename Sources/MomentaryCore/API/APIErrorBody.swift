/// Every error answer of the participant API: `{"error": {"code": "...", "message": "..."}}`.
public struct APIErrorBody: Codable, Sendable, Hashable {
    public struct Detail: Codable, Sendable, Hashable {
        /// An `APIErrorCode` raw value; kept as text so a client still decodes codes added later.
        public var code: String
        /// A sentence for people that names what is wrong.
        public var message: String

        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }

        /// The code, if this build knows it.
        public var knownCode: APIErrorCode? { APIErrorCode(rawValue: code) }
    }

    public var error: Detail

    public init(error: Detail) {
        self.error = error
    }

    public init(code: APIErrorCode, message: String) {
        self.error = Detail(code: code.rawValue, message: message)
    }
}
