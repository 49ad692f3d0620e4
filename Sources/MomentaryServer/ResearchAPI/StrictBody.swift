import Foundation
import Vapor

/// Reads a research API request's JSON body, refusing keys the route does not know: a misspelt
/// `"cont": 3` must be an error, not a request for the default.
enum StrictBody {
    /// `T` decoded from the body, or nil when there is no body at all (the route's defaults apply).
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, allowed: [String]) throws -> T? {
        guard let buffer = request.body.data, buffer.readableBytes > 0 else { return nil }
        let data = Data(buffer.readableBytesView)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Abort(.badRequest, reason: "The body must be a JSON object.")
        }
        let unknown = object.keys.filter { !allowed.contains($0) }.sorted()
        guard unknown.isEmpty else {
            let expected = allowed.map { "“\($0)”" }.joined(separator: ", ")
            throw Abort(.badRequest, reason: "Unknown field \(unknown.map { "“\($0.prefix(40))”" }.joined(separator: ", ")); expected \(expected).")
        }
        // null is not a value of any field: leave a field out for its default.
        if let empty = object.first(where: { $0.value is NSNull })?.key {
            throw Abort(.badRequest, reason: "“\(empty.prefix(40))” is null; leave it out for its default.")
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw Abort(.badRequest, reason: "“\(field)” has the wrong type: \(context.debugDescription)")
        } catch {
            throw Abort(.badRequest, reason: "The body is not the JSON expected: \(error.localizedDescription)")
        }
    }
}
