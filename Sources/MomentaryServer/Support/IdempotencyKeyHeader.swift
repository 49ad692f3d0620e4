import MomentaryCore
import Vapor

/// The `Idempotency-Key` header of a request, checked by the API's one rule for keys
/// (`ResponseSubmission.isValidIdempotencyKey`): replies, research beeps and research messages
/// take it the same way, and refuse a malformed one with the same 400.
enum IdempotencyKeyHeader {
    /// The key, or nil when the header is absent and `required` is false.
    static func read(_ request: Request, required: Bool, for what: String) throws -> String? {
        let name = APIRoute.idempotencyKeyHeader
        guard let key = request.headers.first(name: name) else {
            guard !required else { throw refusal(for: what) }
            return nil
        }
        guard ResponseSubmission.isValidIdempotencyKey(key) else { throw refusal(for: what) }
        return key
    }

    private static func refusal(for what: String) -> APIError {
        APIError(.badRequest, "Send an \(APIRoute.idempotencyKeyHeader) header of 1–\(ResponseSubmission.maximumIdempotencyKeyLength) letters, digits, '-', '_', '.' or ':' (a UUID will do), the same for every retry of \(what).",
                 field: APIRoute.idempotencyKeyHeader)
    }
}
