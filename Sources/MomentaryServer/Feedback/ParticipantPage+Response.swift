import Vapor

extension ParticipantPage {
    /// A page for participants as a response: HTML in UTF-8, and not cached unless
    /// `cacheControl` says otherwise (a participant's own page must not be kept by a shared cache).
    static func response(
        _ html: String, status: HTTPResponseStatus = .ok, cacheControl: String = "no-store", headers extra: HTTPHeaders = [:]
    ) -> Response {
        var headers = extra
        headers.replaceOrAdd(name: .contentType, value: "text/html; charset=utf-8")
        headers.replaceOrAdd(name: .cacheControl, value: cacheControl)
        return Response(status: status, headers: headers, body: .init(string: html))
    }
}
