import Fluent
import MomentaryCore
import SQLKit
import Vapor

/// `/studies/:slug/invitees`: invitation codes, sorted Invited → Participating → Restricted →
/// Withdrawn with counts; creating codes and restricting one.
struct InviteeRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteRoute.invitees, use: list)
        routes.post(SiteRoute.invitees, use: create)
        routes.post(SiteRoute.restrictInvitee, use: restrict)
        routes.get(SiteRoute.inviteeQR, use: qrCode)
    }

    /// Codes shown on one page: enough to print a sheet, few enough for a study of 100,000.
    static let pageSize = 200

    struct InviteesPage: Encodable {
        let chrome: PageChrome
        let invitees: [Row]
        let counts: [Count]
        let total: Int
        let matching: Int
        let filtered: Bool
        let search: String
        let statusFilters: [SelectChoice]
        let page: Int
        let pageCount: Int
        let previousPage: String?
        let nextPage: String?
        let created: [String]
        /// Links a printed sheet of the codes shown.
        let sheetLink: String
        let canCreate: Bool
        let canRestrict: Bool
        struct Row: Encodable {
            let code: String
            /// The absolute join link with the code, as a participant types or scans it.
            let link: String
            let qr: String
            let status: String
            let created: String
            let canBeRestricted: Bool
        }
        struct Count: Encodable {
            let status: String
            let count: Int
        }
    }

    /// The list's query string as the page's filter form sends it.
    struct ListQuery: Content {
        var q: String?
        var status: String?
        var page: String?
        var created: String?
        /// `1`: the codes shown, laid out as a sheet of cards to print.
        var sheet: String?
    }

    func list(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewInvitees)
        return try await render(study, query: try request.query.decode(ListQuery.self), on: request)
    }

    func create(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .createInvitees)
        struct Form: Content { var count: Int }
        guard let form = try? request.content.decode(Form.self), (1...1000).contains(form.count) else {
            throw Abort(.unprocessableEntity, reason: "Number of codes: give a whole number from 1 to 1000.")
        }
        let invitees = try await InviteeService.create(count: form.count, studyID: study.requireID(), on: request.db, now: request.now)
        let codes = invitees.map(\.code).joined(separator: ",")
        return request.redirect(to: SiteRoute.invitees.path(study.slug) + "?created=\(codes)")
    }

    /// The join link of one of the study's codes as a QR code (SVG), drawn here so no third
    /// party learns the codes.
    func qrCode(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewInvitees)
        let code = try request.parameters.require("code").uppercased()
        try await Self.requireCode(code, of: study, on: request.db)
        let link = Self.joinLink(study, code: code, on: request)
        let svg = try QRCode(link).svg(moduleSize: 4, title: "Join link with code \(code)")
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "image", subType: "svg+xml", parameters: ["charset": "utf-8"])
        headers.cacheControl = .init(isPrivate: true, maxAge: 3_600)
        return Response(status: .ok, headers: headers, body: .init(string: svg))
    }

    /// Looked up within the study, so a researcher never reaches another study's code.
    static func requireCode(_ code: String, of study: Study, on db: any Database) async throws {
        guard try await Invitee.query(on: db).filter(\.$study.$id == study.requireID()).filter(\.$code == code).first() != nil else {
            throw Abort(.notFound, reason: "The study “\(study.name)” has no invitation code “\(code)”.")
        }
    }

    /// `https://<server>/join/<slug>?code=<CODE>`.
    static func joinLink(_ study: Study, code: String, on request: Request) -> String {
        var components = URLComponents()
        components.queryItems = [URLQueryItem(name: "code", value: code)]
        return ClientAddress.origin(of: request) + SiteRoute.join.path(study.slug) + (components.string ?? "")
    }

    func restrict(request: Request) async throws -> Response {
        let study = try await request.study(requiring: .restrictInvitees)
        let code = try request.parameters.require("code").uppercased()
        try await Self.requireCode(code, of: study, on: request.db)
        _ = try await InviteeService.restrict(code: code, on: request.db, now: request.now)
        return request.redirect(to: SiteRoute.invitees.path(study.slug))
    }

    private func render(_ study: Study, query: ListQuery, on request: Request) async throws -> Response {
        let researcher = try request.researcher
        let studyID = try study.requireID()
        var status: Invitee.Status?
        if let name = query.status, !name.isEmpty, name != "all" {
            guard let known = Invitee.Status(rawValue: name) else {
                throw Abort(.badRequest, reason: "Choose a status to show: all, invited, participating, restricted or withdrawn.")
            }
            status = known
        }
        let search = (query.q ?? "").trimmingCharacters(in: .whitespaces).uppercased().prefix(20)
        let requested = try PageWindow.requestedPage(query.page)

        // Counts per status in one grouped query on the (study_id, status) index, never by loading every code.
        let grouped = try await request.db.sql
            .raw("SELECT status, COUNT(*) AS n FROM invitees WHERE study_id = \(bind: studyID) GROUP BY status")
            .all(decoding: StatusCountRow.self)
        let counts = Invitee.Status.allCases.map { each in
            InviteesPage.Count(status: each.rawValue.capitalized, count: grouped.first { $0.status == each.rawValue }?.n ?? 0)
        }
        var matches = Invitee.query(on: request.db).filter(\.$study.$id == studyID)
        if let status { matches = matches.filter(\.$status == status) }
        if !search.isEmpty { matches = matches.filter(\.$code, .custom("LIKE"), String(search) + "%") }
        let matching = try await matches.copy().count()
        let window = PageWindow(requested: requested, matching: matching, pageSize: Self.pageSize) { number in
            var components = URLComponents()
            components.queryItems = [URLQueryItem(name: "page", value: String(number))]
                + (status.map { [URLQueryItem(name: "status", value: $0.rawValue)] } ?? [])
                + (search.isEmpty ? [] : [URLQueryItem(name: "q", value: String(search))])
            return SiteRoute.invitees.path(study.slug) + (components.string ?? "")
        }
        // Invited → Participating → Restricted → Withdrawn is also the names' alphabetical order.
        let invitees = try await matches.sort(\.$status).sort(\.$code)
            .offset(window.offset).limit(Self.pageSize).all()
        let rows = invitees.map { invitee in
            InviteesPage.Row(
                code: invitee.code, link: Self.joinLink(study, code: invitee.code, on: request),
                qr: SiteRoute.inviteeQR.path(study.slug, invitee.code), status: invitee.status.rawValue.capitalized,
                created: WebFormat.studyDateTime(invitee.createdAt, in: study.zone),
                canBeRestricted: invitee.status == .invited || invitee.status == .participating)
        }
        var sheetQuery = URLComponents()
        sheetQuery.queryItems = [URLQueryItem(name: "sheet", value: "1"), URLQueryItem(name: "page", value: String(window.page))]
            + (status.map { [URLQueryItem(name: "status", value: $0.rawValue)] } ?? [])
            + (search.isEmpty ? [] : [URLQueryItem(name: "q", value: String(search))])
        return try await request.page(query.sheet == "1" ? "invitees-sheet" : "invitees", InviteesPage(
            chrome: PageChrome(request, title: "Invitees · \(study.name)", study: study),
            invitees: rows, counts: counts, total: counts.map(\.count).reduce(0, +), matching: matching,
            filtered: status != nil || !search.isEmpty, search: String(search),
            statusFilters: SelectChoice.statusFilter(Invitee.Status.allCases, selected: status),
            page: window.page, pageCount: window.pageCount, previousPage: window.previous, nextPage: window.next,
            created: (query.created ?? "").split(separator: ",").map(String.init),
            sheetLink: SiteRoute.invitees.path(study.slug) + (sheetQuery.string ?? ""),
            canCreate: researcher.may(.createInvitees), canRestrict: researcher.may(.restrictInvitees)))
    }
}
