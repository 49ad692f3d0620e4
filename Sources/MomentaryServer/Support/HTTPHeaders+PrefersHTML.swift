import Vapor

extension HTTPHeaders {
    /// Whether the client names HTML and prefers it to JSON. Under `/api/v1` an answer is JSON
    /// unless asked otherwise: `Accept: */*` (curl, Python requests, R) is not a request for HTML,
    /// though Vapor's media-type comparison lets the wildcard match `text/html`.
    var prefersHTML: Bool {
        func quality(_ type: String, _ subType: String) -> Double? {
            accept.first { $0.mediaType.type == type && $0.mediaType.subType == subType }.map { $0.q ?? 1 }
        }
        guard let html = quality("text", "html"), html > 0 else { return false }
        return html >= (quality("application", "json") ?? 0)
    }
}
