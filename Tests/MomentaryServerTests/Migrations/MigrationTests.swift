import Fluent
import Foundation
@testable import MomentaryServer
import SQLKit
import Testing
import VaporTesting

@Suite("Migrations")
struct MigrationTests {
    static let expectedTables: Set<String> = [
        "roles", "role_permissions", "researchers", "study_memberships", "studies", "surveys", "survey_versions",
        "schedules", "invitees", "participants", "beeps", "delivery_attempts", "responses", "answers",
        "response_contexts", "blobs", "stream_batches", "stream_hours",
    ]

    @Test("migrating creates every table of the product's schema and the built-in roles")
    func migrateCreatesSchema() async throws {
        try await withTestApp { app, _ in
            let tables = try await tableNames(app.db)
            #expect(Self.expectedTables.isSubset(of: tables), "missing: \(Self.expectedTables.subtracting(tables))")
            let roles = try await Role.query(on: app.db).with(\.$permissions).all()
            #expect(Set(roles.map(\.name)) == ["Researcher", "Developer"])
            let developer = try #require(roles.first { $0.name == "Developer" })
            #expect(Set(developer.permissions.map(\.permission)) == Set(Permission.allCases.map(\.rawValue)))
        }
    }

    @Test("every migration reverts cleanly, and the schema can be applied again afterwards")
    func revertAllThenMigrateAgain() async throws {
        try await withTestApp { app, _ in
            try await app.autoRevert()
            let left = try await tableNames(app.db)
            #expect(left.isDisjoint(with: Self.expectedTables), "still present: \(left.intersection(Self.expectedTables))")
            try await app.migrateAtomically()
            #expect(Self.expectedTables.isSubset(of: try await tableNames(app.db)))
        }
    }

    @Test("migrating twice applies nothing the second time")
    func migrateIsIdempotent() async throws {
        try await withTestApp { app, _ in
            #expect(try await AppFactory.pendingMigrations(app).isEmpty)
            try await app.migrateAtomically()
            #expect(try await Role.query(on: app.db).count() == 2)
        }
    }

    @Test("a response's idempotency key is unique per participant at the database level")
    func idempotencyKeyIsUnique() async throws {
        try await withTestApp { app, _ in
            let fixture = try await SchemaFixture.make(on: app.db)
            try await fixture.response(key: "retry-1").save(on: app.db)
            await #expect(throws: (any Error).self) {
                try await fixture.response(key: "retry-1").save(on: app.db)
            }
            try await fixture.response(key: "retry-2").save(on: app.db)
            #expect(try await SurveyResponse.query(on: app.db).count() == 2)
        }
    }

    @Test("the due-beep and response-time lookups have indexes")
    func lookupIndexesExist() async throws {
        try await withTestApp { app, _ in
            let sql = app.db.sql
            struct Row: Decodable { let name: String }
            let query: SQLQueryString = TestDatabase.isPostgres
                ? "SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema()"
                : "SELECT name FROM sqlite_master WHERE type = 'index'"
            let names = Set(try await sql.raw(query).all(decoding: Row.self).map(\.name))
            for index in ["beeps_status_scheduled_at", "beeps_participant_scheduled_at", "responses_participant_submitted",
                          "responses_study_submitted", "blobs_participant_stream_hour", "invitees_study_status"] {
                #expect(names.contains(index), "missing index \(index)")
            }
        }
    }
}

/// The fewest rows needed to insert a response: a study, a survey with one version, a participant.
struct SchemaFixture {
    let study: Study
    let survey: Survey
    let participant: Participant

    static func make(on db: any Database) async throws -> SchemaFixture {
        let now = Date()
        let study = Study(slug: "fixture-\(UUID().uuidString.prefix(8).lowercased())", name: "Fixture", now: now)
        try await study.save(on: db)
        let survey = try await SurveyStore.create(
            studyID: try study.requireID(), kind: .esm, name: "ESM", position: 0,
            document: #"{"content":[],"settings":{},"survey_type":"tracking_survey"}"#, on: db, now: now)
        let participant = try await Participant.fixture(
            studyID: try study.requireID(), registeredAt: now, registeredLocalDate: "2026-11-21", updatedAt: now, on: db)
        return SchemaFixture(study: study, survey: survey, participant: participant)
    }

    func response(key: String) throws -> SurveyResponse {
        let response = SurveyResponse()
        response.$participant.id = try participant.requireID()
        response.$study.id = try study.requireID()
        response.$survey.id = try survey.requireID()
        response.surveyVersion = 1
        response.kind = .esm
        response.volunteered = true
        response.idempotencyKey = key
        response.startedAt = Date()
        response.submittedAt = Date()
        response.receivedAt = Date()
        return response
    }
}
