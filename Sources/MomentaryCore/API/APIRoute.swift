import Foundation

/// The one typed list of participant-API routes: the server registers its handlers from it and
/// the client builds its URLs from it, so the two cannot drift apart.
public struct APIRoute: Sendable, Hashable, CustomStringConvertible {
    public enum Method: String, Sendable, Hashable, CaseIterable {
        case get = "GET", post = "POST", put = "PUT", delete = "DELETE"
    }

    public let method: Method
    /// The whole path, starting with `api`, `v1`.
    public let pathTemplate: PathTemplate

    init(_ method: Method, _ relativePath: String) {
        self.method = method
        self.pathTemplate = PathTemplate((Self.prefix + [relativePath]).joined(separator: "/"))
    }

    /// The path segments every route starts with.
    public static let prefix = ["api", "v1"]

    public var segments: [PathTemplate.Segment] { pathTemplate.segments }

    /// The OpenAPI-style template, e.g. `/api/v1/beeps/{id}/survey`.
    public var template: String { pathTemplate.description }

    public var parameterNames: [String] { pathTemplate.parameterNames }

    public var description: String { "\(method.rawValue) \(template)" }

    /// A concrete path with the parameters filled in order, each percent-encoded.
    /// Passing the wrong number of values is a programming error.
    public func path(_ values: String...) -> String {
        pathTemplate.path(values)
    }

    public func path(_ values: [String]) -> String {
        pathTemplate.path(values)
    }
}

extension APIRoute {
    /// Registration; with `studyInfo`, `checkInvitation`, `webPushKey` and `publicStatistics`, the
    /// only calls without authentication.
    public static let register = APIRoute(.post, "participants")
    /// What to show before registering: consent text, settings choices, registration survey.
    public static let studyInfo = APIRoute(.get, "studies/{slug}")
    /// Whether an invitation code may still join the study (204, else the error registration
    /// would give); says nothing of any other code, and is limited per client address.
    public static let checkInvitation = APIRoute(.get, "studies/{slug}/invitations/{code}")
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
    /// A CSV batch of a passive stream (`PassiveStream` raw value) with an `Idempotency-Key` header.
    public static let uploadStream = APIRoute(.post, "uploads/{stream}")
    /// The participant's own charts ("My happiness"): JSON, or an HTML page for `Accept: text/html`.
    public static let feedback = APIRoute(.get, "feedback")
    /// Turn the personal data-download link on (a new secret each time) or off.
    public static let enableDataDownload = APIRoute(.post, "data-download")
    public static let disableDataDownload = APIRoute(.delete, "data-download")
    /// A study's public statistics, refreshed on a schedule (no authentication; 404 while off).
    public static let publicStatistics = APIRoute(.get, "studies/{slug}/statistics")
    /// The server's VAPID public key, which a browser needs to subscribe to Web Push.
    public static let webPushKey = APIRoute(.get, "push/web-push-key")

    /// The participant's inbox: the researchers' messages and their own replies, oldest first.
    public static let messages = APIRoute(.get, "messages")
    /// A reply to the researchers (where the study takes replies), with an `Idempotency-Key` header.
    public static let replyToResearchers = APIRoute(.post, "messages")
    /// Marks one of the researchers' messages read; parameter: message id.
    public static let readMessage = APIRoute(.post, "messages/{id}/read")

    /// The query parameter of `uploadPhoto` that makes a photo public.
    public static let photoPublicQueryName = "public"
    /// The header naming a stream batch, so a retried upload is stored once.
    public static let idempotencyKeyHeader = "Idempotency-Key"

    public static let all: [APIRoute] = [
        register, studyInfo, status, updateSettings, updatePushToken, beepSurvey, reportIgnored,
        volunteerSurvey, submitResponse, uploadPhoto, withdraw, webPushKey, feedback, enableDataDownload, disableDataDownload,
        publicStatistics, uploadStream, checkInvitation, messages, replyToResearchers, readMessage,
    ]

    /// Whether the route needs HTTP Basic credentials.
    public var requiresAuthentication: Bool {
        ![.register, .studyInfo, .checkInvitation, .webPushKey, .publicStatistics].contains(self)
    }
}
