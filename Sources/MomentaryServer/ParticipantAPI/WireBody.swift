import MomentaryCore
import Vapor

/// Reading and writing the participant API's JSON with the shared wire coding (dates, snake_case),
/// so server and client can never disagree on a format.
enum WireBody {
    /// Decodes the JSON body; a missing body, another media type or malformed JSON is a 4xx.
    /// A `QuickJSONDecodable` body (a response, at every upload) is read by `QuickJSON` first,
    /// which gives way to `JSONDecoder`, and so to its error sentences, whenever it is unsure.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request) throws -> T {
        guard isJSON(request.headers) else {
            throw APIError(.unsupportedMediaType, code: APIErrorCode.unsupportedMediaType.rawValue,
                           "The request body must be JSON (Content-Type: application/json).")
        }
        guard let buffer = request.body.data, buffer.readableBytes > 0 else {
            throw APIError.badRequest("The request body is missing; expected a JSON object.")
        }
        if let quick = T.self as? any QuickJSONDecodable.Type,
           let value = buffer.withUnsafeReadableBytes({ quick.quickDecoded(from: $0) }) as? T {
            return value
        }
        do {
            return try WireCoding.makeDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw APIError.badRequest(DecodingErrorDescription.sentence(for: error))
        }
    }

    /// Whether the body is declared JSON. The two spellings apps send are taken as they are; others
    /// are parsed (Vapor's parse of the media type and its parameters showed in an upload's CPU;
    /// figures: BENCHMARKS.md, `momentary-bench ingest`).
    private static func isJSON(_ headers: HTTPHeaders) -> Bool {
        guard let declared = headers.first(name: .contentType) else { return false }
        if declared == "application/json" || declared == WireCoding.jsonContentType { return true }
        guard let contentType = headers.contentType else { return false }
        // Media types are case-insensitive (RFC 9110 §8.3.1); Vapor keeps them as written.
        return contentType.type.lowercased() == "application" && contentType.subType.lowercased() == "json"
    }

    /// The JSON body of an optional-body request: nil when the body is empty.
    static func decodeIfPresent<T: Decodable>(_ type: T.Type, from request: Request) throws -> T? {
        guard let buffer = request.body.data, buffer.readableBytes > 0 else { return nil }
        return try decode(type, from: request)
    }

    static func response<T: Encodable>(_ value: T, status: HTTPResponseStatus = .ok) throws -> Response {
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: WireCoding.jsonContentType)
        return Response(status: status, headers: headers, body: .init(data: try WireCoding.makeEncoder().encode(value)))
    }
}
