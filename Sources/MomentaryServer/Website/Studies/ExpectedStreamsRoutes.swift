import Fluent
import MomentaryCore
import Vapor

/// `/studies/:slug/streams`: which passive streams the study expects from participants' phones
/// (set by a Beiwe import from its `device_settings`, or here), shown on the study's overview.
struct ExpectedStreamsRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.expectedStreams, use: show)
        routes.post(SiteRoute.expectedStreams, use: save)
    }

    struct Page: Encodable {
        let chrome: PageChrome
        let choices: [Choice]
        let canEdit: Bool
        struct Choice: Encodable { let value: String; let label: String; let checked: Bool }
    }

    /// Each stream in words, as the page lists it.
    static let labels: [PassiveStream: String] = [
        .gps: "GPS location", .accelerometer: "Accelerometer", .gyro: "Gyroscope", .magnetometer: "Magnetometer",
        .devicemotion: "Device motion", .powerState: "Power state (screen, charging)", .proximity: "Proximity sensor",
        .reachability: "Network reachability",
    ]

    func show(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewStudies)
        let expected = study.expectedStreams
        return try await request.page("streams", Page(
            chrome: PageChrome(request, title: "Passive data · \(study.name)", study: study),
            choices: ExpectedStreams.choices.map { Page.Choice(value: $0.rawValue, label: Self.labels[$0] ?? $0.rawValue, checked: expected.contains($0)) },
            canEdit: try request.researcher.may(.editStudies)))
    }

    func save(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .editStudies)
        struct Form: Content { var streams: [String]? }
        let names = try request.content.decode(Form.self).streams ?? []
        if let problem = ExpectedStreams.problems(names).first {
            throw Abort(.unprocessableEntity, reason: problem.prefix(1).uppercased() + problem.dropFirst() + ".")
        }
        study.expectedStreams = names.compactMap(PassiveStream.init(rawValue:))
        study.updatedAt = request.now
        try await study.save(on: request.db)
        return request.redirect(to: SiteRoute.expectedStreams.path(study.slug) + "?saved=1")
    }
}
