import Foundation

/// The one typed list of participant-API routes: the server registers its handlers from it and
/// the client builds its URLs from it, so the two cannot drift apart.
public struct APIRoute: Sendable, Hashable, CustomStringConvertible {
    public enum Method: String, Sendable, Hashable, CaseIterable {
        case get = "GET", post = "POST", put = "PUT", delete = "DELETE"
    }

    public enum Segment: Sendable, Hashable {
        case constant(String)
        /// A path parameter, named as in the template (`{id}`).
        case parameter(String)
    }

    public let method: Method
    /// All path segments, starting with `api`, `v1`.
    public let segments: [Segment]

    init(_ method: Method, _ relativePath: String) {
        self.method = method
        let parts = relativePath.split(separator: "/").map(String.init)
        self.segments = Self.prefix.map(Segment.constant) + parts.map { part in
            part.hasPrefix("{") && part.hasSuffix("}")
                ? .parameter(String(part.dropFirst().dropLast()))
                : .constant(part)
        }
    }

    /// The path segments every route starts with.
    public static let prefix = ["api", "v1"]

    /// The OpenAPI-style template, e.g. `/api/v1/beeps/{id}/survey`.
    public var template: String {
        "/" + segments.map { segment in
            switch segment {
            case .constant(let text): text
            case .parameter(let name): "{\(name)}"
            }
        }.joined(separator: "/")
    }

    public var parameterNames: [String] {
        segments.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    public var description: String { "\(method.rawValue) \(template)" }

    /// A concrete path with the parameters filled in order, each percent-encoded.
    /// Passing the wrong number of values is a programming error.
    public func path(_ values: String...) -> String {
        path(values)
    }

    public func path(_ values: [String]) -> String {
        precondition(values.count == parameterNames.count,
                     "\(self) takes \(parameterNames.count) parameter(s), got \(values.count)")
        var remaining = values[...]
        return "/" + segments.map { segment in
            switch segment {
            case .constant(let text):
                return text
            case .parameter:
                let value = remaining.removeFirst()
                return value.addingPercentEncoding(withAllowedCharacters: Self.segmentAllowed) ?? value
            }
        }.joined(separator: "/")
    }

    private static let segmentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
}

extension APIRoute {
    /// Registration; with `studyInfo`, `webPushKey` and `publicStatistics`, the only calls without authentication.
    public static let register = APIRoute(.post, "participants")
    /// What to show before registering: consent text, settings choices, registration survey.
    public static let studyInfo = APIRoute(.get, "studies/{slug}")
    public static let status = APIRoute(.get, "status")
    public static let updateSettings = APIRoute(.put, "settings")
    public static let updatePushToken = APIRoute(.put, "push-token")
    /// The survey for a beep; parameter: beep id.
    public static let beepSurvey = APIRoute(.get, "beeps/{id}/survey")
    /// Report a beep that arrived while the app was busy; parameter: beep id.
    public static let reportIgnored = APIRoute(.post, "beeps/{id}/ignored")
    /// The survey for a volunteered response (no beep pending).
    public static let volunteerSurvey = APIRoute(.get, "survey")
    public static let submitResponse = APIRoute(.post, "responses")
    /// JPEG body; parameter: response id; query `public=true|false`.
    public static let uploadPhoto = APIRoute(.post, "responses/{id}/photo")
    public static let withdraw = APIRoute(.post, "withdraw")
    /// The participant's own charts ("My happiness"): JSON, or an HTML page for `Accept: text/html`.
    public static let feedback = APIRoute(.get, "feedback")
    /// Turn the personal data-download link on (a new secret each time) or off.
    public static let enableDataDownload = APIRoute(.post, "data-download")
    public static let disableDataDownload = APIRoute(.delete, "data-download")
    /// A study's public statistics, refreshed on a schedule (no authentication; 404 while off).
    public static let publicStatistics = APIRoute(.get, "studies/{slug}/statistics")
    /// The server's VAPID public key, which a browser needs to subscribe to Web Push.
    public static let webPushKey = APIRoute(.get, "push/web-push-key")

    /// The query parameter of `uploadPhoto` that makes a photo public.
    public static let photoPublicQueryName = "public"

    public static let all: [APIRoute] = [
        register, studyInfo, status, updateSettings, updatePushToken, beepSurvey, reportIgnored,
        volunteerSurvey, submitResponse, uploadPhoto, withdraw, webPushKey, feedback, enableDataDownload, disableDataDownload,
        publicStatistics,
    ]

    /// Whether the route needs HTTP Basic credentials.
    public var requiresAuthentication: Bool { ![.register, .studyInfo, .webPushKey, .publicStatistics].contains(self) }
}
