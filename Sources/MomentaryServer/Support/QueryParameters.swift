import Foundation
import Vapor

/// The names in a request's query string, for routes that refuse names they do not know (a
/// misspelt filter would otherwise be ignored and the answer silently wider than asked).
enum QueryParameters {
    static func names(of request: Request) -> Set<String> {
        guard let query = request.url.query, !query.isEmpty else { return [] }
        var components = URLComponents()
        components.percentEncodedQuery = query
        return Set((components.queryItems ?? []).map(\.name).filter { !$0.isEmpty })
    }
}
