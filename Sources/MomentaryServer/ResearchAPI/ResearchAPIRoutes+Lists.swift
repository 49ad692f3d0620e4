import Fluent
import MomentaryCore
import SQLKit
import Vapor

/// `GET …/participants`, `…/beeps` and `…/responses` as JSON, a page at a time by keyset: each
/// answer's `next` is the id to pass as `after` for the page that follows (null after the last),
/// so a late page costs no more than an early one and rows added meanwhile are not skipped.
extension ResearchAPIRoutes {
    struct Paging {
        static let defaultLimit = 100
        static let maximumLimit = 1_000
        var after: UUID?
        var limit = defaultLimit

        /// `after` and `limit` from the query, after refusing names the list does not know.
        static func read(_ request: Request, filters: [String]) throws -> Paging {
            let known = Set(filters + ["after", "limit"])
            let unknown = QueryParameters.names(of: request).subtracting(known)
            guard unknown.isEmpty else {
                let names = known.sorted().joined(separator: ", ")
                throw Abort(.badRequest, reason: "Unknown query parameter \(unknown.sorted().map { "“\($0.prefix(40))”" }.joined(separator: ", ")); this list takes \(names).")
            }
            var paging = Paging()
            // Empty is refused too: a script that sends `after=` has lost its cursor.
            if let text = try request.query.get(String?.self, at: "after") {
                guard let id = UUID(uuidString: text) else {
                    throw Abort(.badRequest, reason: "after must be the id the previous page gave as next, not “\(text.prefix(40))”.")
                }
                paging.after = id
            }
            if let text = try request.query.get(String?.self, at: "limit") {
                guard let limit = Int(text), (1...maximumLimit).contains(limit) else {
                    throw Abort(.badRequest, reason: "limit must be a whole number from 1 to \(maximumLimit), not “\(text.prefix(20))”.")
                }
                paging.limit = limit
            }
            return paging
        }
    }

    /// The id of the study's participant a list's `participant` filter names; nil without the filter.
    private func participantID(labelled text: String?, in study: Study, on db: any Database) async throws -> UUID? {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return try await participant(labelled: text, in: study, allowingErased: true, on: db).requireID()
    }

    /// The cursor row's time, checked to be one of the study's rows of `table`.
    private func cursor(_ id: UUID?, table: String, time: String, studyID: UUID, on sql: any SQLDatabase) async throws -> (id: UUID, time: Date)? {
        guard let id else { return nil }
        guard let row = try await sql.raw("SELECT \(unsafeRaw: time) AS t FROM \(unsafeRaw: table) WHERE id = \(bind: id) AND study_id = \(bind: studyID)").first() else {
            throw Abort(.badRequest, reason: "after must be the id the previous page of this list gave as next; \(id) is none of this study's \(table).")
        }
        return (id, try row.decode(column: "t", as: Date.self))
    }

    // MARK: participants

    /// A participant as listed: read from the query's columns (`Column`), written under the
    /// names of `CodingKeys`. Ids are lower case, as in the exports.
    struct ListedParticipant: Codable {
        let id: String
        let label: String?
        let status: String
        let erased: Bool
        let registeredAt: Date
        let timeZone: String
        let language: String?
        let beepsPerDay: Int
        let hoursStart: String
        let hoursEnd: String
        let pushChannel: String
        let lastSeenAt: Date?
        let lastAnsweredAt: Date?
        let dates: [String: String]?
        /// The participant's variables (`participant_variables`), by name; null when none are set.
        let variables: [String: JSONValue]?

        enum CodingKeys: String, CodingKey {
            case id, label, status, erased, registeredAt = "registered_at", timeZone = "timezone", language
            case beepsPerDay = "beeps_per_day", hoursStart = "hours_start", hoursEnd = "hours_end", pushChannel = "push_channel"
            case lastSeenAt = "last_seen_at", lastAnsweredAt = "last_answered_at", dates, variables
        }

        /// The columns `participantRows` selects.
        private enum Column: String, CodingKey {
            case id, label, status, erasedAt = "erased_at", registeredAt = "registered_at", timezone, language
            case beepsPerDay = "beeps_per_day", startMinutes = "signal_start_minutes", endMinutes = "signal_end_minutes"
            case pushChannel = "push_channel", lastSeenAt = "last_seen_at", lastAnsweredAt = "last_answered_at", dates, variables
        }

        init(from decoder: any Decoder) throws {
            let row = try decoder.container(keyedBy: Column.self)
            func json<Value: Decodable>(_ column: Column, as type: Value.Type) throws -> Value? {
                try row.decodeIfPresent(String.self, forKey: column).flatMap { try? JSONDecoder().decode(type, from: Data($0.utf8)) }
            }
            id = try row.decode(UUID.self, forKey: .id).uuidString.lowercased()
            label = try row.decodeIfPresent(String.self, forKey: .label)
            status = try row.decode(String.self, forKey: .status)
            erased = try row.decodeIfPresent(Date.self, forKey: .erasedAt) != nil
            registeredAt = try row.decode(Date.self, forKey: .registeredAt)
            timeZone = try row.decode(String.self, forKey: .timezone)
            language = try row.decodeIfPresent(String.self, forKey: .language)
            beepsPerDay = try row.decode(Int.self, forKey: .beepsPerDay)
            hoursStart = TimeOfDay(minutes: try row.decode(Int.self, forKey: .startMinutes))?.description ?? ""
            hoursEnd = TimeOfDay(minutes: try row.decode(Int.self, forKey: .endMinutes))?.description ?? ""
            pushChannel = try row.decode(String.self, forKey: .pushChannel)
            lastSeenAt = try row.decodeIfPresent(Date.self, forKey: .lastSeenAt)
            lastAnsweredAt = try row.decodeIfPresent(Date.self, forKey: .lastAnsweredAt)
            dates = try json(.dates, as: [String: String].self)
            variables = try json(.variables, as: [String: JSONValue].self)
        }
    }

    /// Filters as the website's participants page: `q` (part of a label), `status`, `quiet` (no
    /// answer in that many days); in registration order.
    func participants(_ request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewParticipants)
        let studyID = try study.requireID()
        let paging = try Paging.read(request, filters: ["q", "status", "quiet"])
        let form = try request.query.decode(ParticipantRoutes.ListQuery.self)
        let query = try ParticipantRoutes.listQuery(ParticipantRoutes.ListQuery(q: form.q, status: form.status, quiet: form.quiet))
        let keyset = KeysetPage(table: "participants", alias: "p", timeColumn: "registered_at")
        let start = try await cursor(paging.after, table: "participants", time: "registered_at", studyID: studyID, on: request.db.sql)
        let conditions = ComplianceReport.filterSQL(query, now: request.now) + keyset.after(start)
        let listed = try await participantRows(of: study, where: conditions, limit: paging.limit, on: request.db)
        return try WireBody.response(ListPage(items: listed, key: "participants", next: listed.count == paging.limit ? listed.last.flatMap { UUID(uuidString: $0.id) } : nil))
    }

    /// The study's participants meeting `conditions` (each starting with AND, on `p`), in
    /// registration order.
    func participantRows(of study: Study, where conditions: SQLQueryString, limit: Int, on db: any Database) async throws -> [ListedParticipant] {
        let keyset = KeysetPage(table: "participants", alias: "p", timeColumn: "registered_at")
        return try await db.sql.raw("""
            SELECT p.id, p.label, p.status, p.erased_at, p.registered_at, p.timezone, p.language, p.beeps_per_day,
                p.signal_start_minutes, p.signal_end_minutes, p.push_channel, p.last_seen_at, p.last_answered_at, p.dates,
                p.variables
            FROM participants p WHERE p.study_id = \(bind: try study.requireID())\(conditions)\(keyset.order(limit: limit))
            """).all(decoding: ListedParticipant.self)
    }

    // MARK: beeps

    /// A beep as listed: read from the query's columns, written under the same names (the id in
    /// lower case, as in the exports).
    struct ListedBeep: Codable {
        let id: UUID
        let participant: String?
        let survey: String?
        let origin: String
        let status: String
        let timeZone: String?
        let scheduledAt: Date
        let sentAt: Date?
        let openedAt: Date?
        let expiresAt: Date?
        let deliveryOutcome: String?
        let deliveryReason: String?
        /// For a follow-up: the response whose answers planned it.
        let triggerResponseID: UUID?

        enum CodingKeys: String, CodingKey {
            case id, participant, survey, origin, status, timeZone = "timezone", scheduledAt = "scheduled_at", sentAt = "sent_at"
            case openedAt = "opened_at", expiresAt = "expires_at", deliveryOutcome = "delivery_outcome", deliveryReason = "delivery_reason"
            case triggerResponseID = "trigger_response_id"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id.uuidString.lowercased(), forKey: .id)
            try container.encode(participant, forKey: .participant)
            try container.encode(survey, forKey: .survey)
            try container.encode(origin, forKey: .origin)
            try container.encode(status, forKey: .status)
            try container.encode(timeZone, forKey: .timeZone)
            try container.encode(scheduledAt, forKey: .scheduledAt)
            try container.encode(sentAt, forKey: .sentAt)
            try container.encode(openedAt, forKey: .openedAt)
            try container.encode(expiresAt, forKey: .expiresAt)
            try container.encode(deliveryOutcome, forKey: .deliveryOutcome)
            try container.encode(deliveryReason, forKey: .deliveryReason)
            try container.encode(triggerResponseID?.uuidString.lowercased(), forKey: .triggerResponseID)
        }
    }

    /// Filters: `participant` (label), `status`, `origin`, `from` and `to` (UTC days of
    /// `scheduled_at`); in the order they were due.
    func beeps(_ request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewParticipants)
        let studyID = try study.requireID()
        let paging = try Paging.read(request, filters: ["participant", "status", "origin", "from", "to"])
        struct Filters: Decodable { var participant: String?, status: String?, origin: String?, from: String?, to: String? }
        let form = try request.query.decode(Filters.self)
        var filter: ExportFilter
        do {
            filter = try ExportFilter.parse(from: form.from, to: form.to, participants: [])
        } catch {
            throw Abort(.badRequest, reason: error.message)
        }
        if let id = try await participantID(labelled: form.participant, in: study, on: request.db) { filter.participantIDs = [id] }
        var conditions = filter.conditions(time: "b.scheduled_at", participant: "b.participant_id")
        if let text = form.status, !text.isEmpty {
            guard let status = Beep.Status(rawValue: text) else {
                throw Abort(.badRequest, reason: "status must be one of \(Beep.Status.allCases.map(\.rawValue).joined(separator: ", ")), not “\(text.prefix(20))”.")
            }
            conditions += " AND b.status = \(bind: status.rawValue)"
        }
        if let text = form.origin, !text.isEmpty {
            guard let origin = Beep.Origin(rawValue: text) else {
                throw Abort(.badRequest, reason: "origin must be one of \(Beep.Origin.allCases.map(\.rawValue).joined(separator: ", ")), not “\(text.prefix(20))”.")
            }
            conditions += " AND b.origin = \(bind: origin.rawValue)"
        }
        let sql = request.db.sql
        let keyset = KeysetPage(table: "beeps", alias: "b", timeColumn: "scheduled_at")
        let start = try await cursor(paging.after, table: "beeps", time: "scheduled_at", studyID: studyID, on: sql)
        let listed = try await sql.raw("""
            SELECT b.id, p.label AS participant, s.name AS survey, b.origin, b.status, b.timezone, b.scheduled_at, b.sent_at, b.opened_at,
                b.expires_at, b.delivery_outcome, b.delivery_reason, b.trigger_response_id
            FROM beeps b JOIN participants p ON p.id = b.participant_id LEFT JOIN surveys s ON s.id = b.survey_id
            WHERE b.study_id = \(bind: studyID)\(conditions)\(keyset.after(start))\(keyset.order(limit: paging.limit))
            """).all(decoding: ListedBeep.self)
        return try WireBody.response(ListPage(items: listed, key: "beeps", next: listed.count == paging.limit ? listed.last?.id : nil))
    }

    // MARK: responses

    /// Each response as the JSON export writes it; filters: `participant` (label), `survey`
    /// (name), `from` and `to` (UTC days of `submitted_at`); in the order they were submitted.
    func responses(_ request: Request) async throws -> Response {
        let study = try await request.study(requiring: .viewResponses)
        let studyID = try study.requireID()
        let paging = try Paging.read(request, filters: ["participant", "survey", "from", "to"])
        struct Filters: Decodable { var participant: String?, survey: String?, from: String?, to: String? }
        let form = try request.query.decode(Filters.self)
        var filter: ExportFilter
        do {
            filter = try ExportFilter.parse(from: form.from, to: form.to, participants: [])
        } catch {
            throw Abort(.badRequest, reason: error.message)
        }
        if let id = try await participantID(labelled: form.participant, in: study, on: request.db) { filter.participantIDs = [id] }
        if let name = form.survey, !name.isEmpty {
            guard let survey = try await Survey.query(on: request.db).filter(\.$study.$id == studyID).filter(\.$name == name).first() else {
                throw Abort(.notFound, reason: "This study has no survey “\(name.prefix(80))”.")
            }
            filter.surveyID = try survey.requireID()
        }
        let start = try await cursor(paging.after, table: "responses", time: "submitted_at", studyID: studyID, on: request.db.sql)
        var reader = try await ExportReader(
            studyID: studyID, filter: filter, pageSize: paging.limit, startingAfter: start.map { ($0.id, $0.time) }, onePage: true, on: request.db)
        let records = try await reader.nextPage() ?? []
        let listed = records.map { ExportedResponseJSON(study: study.slug, record: $0) }
        return try WireBody.response(ListPage(items: listed, key: "responses", next: records.count == paging.limit ? records.last?.responseID : nil))
    }
}

/// `{"<key>": [items], "next": id or null}`.
struct ListPage<Item: Encodable>: Encodable {
    let items: [Item]
    let key: String
    let next: UUID?

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(items, forKey: Key(key))
        // Present as null on the last page, so a client's loop can test it.
        if let next { try container.encode(next.uuidString.lowercased(), forKey: Key("next")) } else { try container.encodeNil(forKey: Key("next")) }
    }
}
