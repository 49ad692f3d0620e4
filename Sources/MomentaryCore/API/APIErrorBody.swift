/// Every error answer of the participant API: `{"error": {"code": "...", "message": "..."}}`, with
/// `field` and `question_id` added where the server can point at what is wrong.
public struct APIErrorBody: Codable, Sendable, Hashable {
    public struct Detail: Codable, Sendable, Hashable {
        /// An `APIErrorCode` raw value; kept as text so a client still decodes codes added later.
        public var code: String
        /// A sentence for people that names what is wrong.
        public var message: String
        /// The request field at fault as a JSON path (`invitation_code`, `settings.beeps_per_day`),
        /// when the server knows it, so an app can show the message next to that field.
        public var field: String?
        /// The survey question at fault, for refused answers.
        public var questionID: String?
        /// For a refused stream batch: the CSV line at fault (the header is line 1) …
        public var line: Int?
        /// … and its column, by the header's name for it.
        public var column: String?

        public init(code: String, message: String, field: String? = nil, questionID: String? = nil, line: Int? = nil, column: String? = nil) {
            self.code = code
            self.message = message
            self.field = field
            self.questionID = questionID
            self.line = line
            self.column = column
        }

        enum CodingKeys: String, CodingKey {
            case code, message, field, line, column
            case questionID = "question_id"
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
