import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// The research API as a researcher's script meets it: a personal access token, what it reaches
/// and what it does not, and exports identical to the command line's.
@Suite("The research API and personal access tokens", .serialized)
struct ResearchAPITests {
    private func token(
        _ email: String, studies: [String] = [], days: Int? = nil, readOnly: Bool = false, on db: any Database, now: Date = Date()
    ) async throws -> String {
        let researcher = try #require(try await Researcher.query(on: db).filter(\.$email == email).first())
        return try await AccessTokens.create(
            for: researcher, name: "script", studySlugs: studies, expiresInDays: days, readOnly: readOnly, on: db, now: now).secret
    }

    private func call(_ app: Application, _ method: HTTPMethod, _ path: String, token: String?, json: String? = nil) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        if let token { headers.bearerAuthorization = BearerAuthorization(token: token) }
        var body: ByteBuffer?
        if let json {
            headers.contentType = .json
            body = ByteBuffer(string: json)
        }
        return try await app.testing().sendRequest(method, path, headers: headers, body: body)
    }

    private struct Studies: Decodable {
        struct Study: Decodable { let slug: String }
        let studies: [Study]
    }

    @Test("without a live token: 401 with WWW-Authenticate, and the attempt is in the audit log")
    func refusesWithoutToken() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            for token in [nil, "mom_madeup", "not even a token"] {
                let response = try await call(app, .GET, "/api/v1/research/studies", token: token)
                #expect(response.status == .unauthorized, "\(String(describing: token))")
                #expect(response.headers.first(name: "WWW-Authenticate")?.hasPrefix("Bearer") == true)
                #expect(response.body.string.contains("\"error\""))
            }
            let refused = try await AuditEvent.query(on: app.db).filter(\.$outcome == "401 no valid token").count()
            #expect(refused == 3)
        }
    }

    @Test("a token sees the studies its researcher may see, narrowed to the ones it names; every use is audited")
    func studyScope() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            let developer = try await token(WebsiteWorld.developer, on: app.db)
            let limitedResearcher = try await token(WebsiteWorld.researcher, on: app.db)
            let onlyB = try await token(WebsiteWorld.developer, studies: ["study-b"], on: app.db)
            for (secret, expected) in [(developer, ["demo", "study-a", "study-b"]), (limitedResearcher, ["study-a"]), (onlyB, ["study-b"])] {
                let response = try await call(app, .GET, "/api/v1/research/studies", token: secret)
                #expect(response.status == .ok)
                let slugs = try JSONDecoder().decode(Studies.self, from: response.body).studies.map(\.slug)
                #expect(slugs.filter { $0 != "demo" } == expected.filter { $0 != "demo" })
            }
            #expect(try await call(app, .GET, "/api/v1/research/studies/study-a", token: onlyB).status == .forbidden)
            #expect(try await call(app, .GET, "/api/v1/research/studies/study-b", token: limitedResearcher).status == .forbidden)
            let document = try await call(app, .GET, "/api/v1/research/studies/study-b", token: onlyB)
            #expect(document.status == .ok)
            #expect(document.body.string.contains("Feelings B"))
            let used = try await AuditEvent.query(on: app.db).filter(\.$action == "research API (token “script”)").all()
            #expect(used.count == 6)
            #expect(Set(used.map(\.outcome)) == ["200", "403"])
            // A researcher cannot make a token for a study they are not a member of.
            await #expect(throws: AccessTokens.Refusal.self) { _ = try await token(WebsiteWorld.researcher, studies: ["study-b"], on: app.db) }
        }
    }

    @Test("never beyond the role: read-only tokens and roles without the permission cannot make codes")
    func permissions() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            let full = try await token(WebsiteWorld.developer, on: app.db)
            let readOnly = try await token(WebsiteWorld.developer, readOnly: true, on: app.db)
            let observer = try await token(WebsiteWorld.observer, on: app.db)
            let made = try await call(app, .POST, "/api/v1/research/studies/study-a/invitees", token: full, json: #"{"count": 3}"#)
            #expect(made.status == .created)
            struct Codes: Decodable { let codes: [String] }
            let codes = try JSONDecoder().decode(Codes.self, from: made.body).codes
            #expect(codes.count == 3)
            #expect(try await Invitee.query(on: app.db).filter(\.$code ~~ codes).count() == 3)
            for secret in [readOnly, observer] {
                #expect(try await call(app, .POST, "/api/v1/research/studies/study-a/invitees", token: secret, json: #"{"count": 1}"#).status == .forbidden)
            }
            #expect(try await call(app, .POST, "/api/v1/research/studies/study-a/invitees", token: full, json: #"{"count": 0}"#).status == .unprocessableEntity)
            #expect(try await call(app, .POST, "/api/v1/research/studies/study-a/invitees", token: full, json: #"{"count": "3"}"#).status == .badRequest)
            #expect(try await call(app, .POST, "/api/v1/research/studies/study-a/invitees", token: full, json: #"{"count": 3"#).status == .badRequest)
            let before = try await Invitee.query(on: app.db).count()
            let misspelt = try await call(app, .POST, "/api/v1/research/studies/study-a/invitees", token: full, json: #"{"cont": 3}"#)
            #expect(misspelt.status == .badRequest)
            #expect(misspelt.body.string.contains("cont"))
            #expect(try await call(app, .POST, "/api/v1/research/studies/study-a/invitees", token: full, json: "[3]").status == .badRequest)
            #expect(try await call(app, .POST, "/api/v1/research/studies/study-a/invitees", token: full, json: #"{"count": null}"#).status == .badRequest)
            #expect(try await Invitee.query(on: app.db).count() == before, "a refused request makes no code")
            let one = try await call(app, .POST, "/api/v1/research/studies/study-a/invitees", token: full)
            #expect(one.status == .created)
            #expect(try JSONDecoder().decode(Codes.self, from: one.body).codes.count == 1)
            #expect(try await call(app, .GET, "/api/v1/research/studies/study-a/exports/long", token: observer).status == .forbidden)
            #expect(try await call(app, .GET, "/api/v1/research/studies/study-a/exports/long", token: readOnly).status == .ok)
            #expect(try await call(app, .GET, "/api/v1/research/studies/study-a/exports/nonsense", token: readOnly).status == .notFound)
            #expect(try await call(app, .GET, "/api/v1/research/studies/study-a/exports/long?from=yesterday", token: readOnly).status == .badRequest)
            let misspeltFilter = try await call(app, .GET, "/api/v1/research/studies/study-a/exports/long?form=2026-01-01", token: readOnly)
            #expect(misspeltFilter.status == .badRequest, "a misspelt filter is refused, not ignored")
            #expect(misspeltFilter.body.string.contains("form"))
            #expect(try await call(app, .GET, "/api/v1/research/studies/study-a/exports/long?from=2026-01-01&to=2026-12-31&bom=yes&survey=", token: readOnly).status == .ok, "every known filter is accepted")
        }
    }

    @Test("tokens expire and can be revoked; a disabled researcher's tokens stop working")
    func expiryRevocationAndDisabling() async throws {
        let clock = ManualTimeSource(now: Date())
        try await withTestApp(timeSource: clock) { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            let shortLived = try await token(WebsiteWorld.developer, days: 1, on: app.db, now: clock.now())
            let revoked = try await token(WebsiteWorld.developer, on: app.db, now: clock.now())
            let disabled = try await token(WebsiteWorld.researcher, on: app.db, now: clock.now())
            for secret in [shortLived, revoked, disabled] {
                #expect(try await call(app, .GET, "/api/v1/research/studies", token: secret).status == .ok)
            }
            let record = try #require(try await AccessToken.query(on: app.db).filter(\.$tokenHash == SecretHash.of(revoked)).first())
            #expect(try await AccessTokens.revoke(record.requireID(), of: record.$researcher.id, on: app.db, now: clock.now()))
            let account = try #require(try await Researcher.query(on: app.db).filter(\.$email == WebsiteWorld.researcher).first())
            account.disabled = true
            try await account.save(on: app.db)
            clock.advance(by: 86_400 + 1)
            for secret in [shortLived, revoked, disabled] {
                #expect(try await call(app, .GET, "/api/v1/research/studies", token: secret).status == .unauthorized)
            }
            let developer = try #require(try await Researcher.query(on: app.db).filter(\.$email == WebsiteWorld.developer).first())
            for days in [0, 366] {
                await #expect(throws: AccessTokens.Refusal.self) {
                    _ = try await AccessTokens.create(for: developer, name: "x", studySlugs: [], expiresInDays: days, readOnly: false, on: app.db, now: clock.now())
                }
            }
            await #expect(throws: AccessTokens.Refusal.self) {
                _ = try await AccessTokens.create(for: developer, name: "  ", studySlugs: [], expiresInDays: nil, readOnly: false, on: app.db, now: clock.now())
            }
        }
    }

    @Test("an export through the API is byte for byte the command line's (an iCalendar's DTSTAMP aside)")
    func exportsMatchTheCommandLine() async throws {
        let data = try TestScratch.folder("research-api")
        try await withTestApp(adjusting: { configuration in
            configuration.dataDirectory = data
            configuration.database = .sqlite(path: data.appendingPathComponent(Configuration.sqliteFileName).path)
            configuration.postgresSchema = nil
        }) { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            let secret = try await token(WebsiteWorld.developer, on: app.db)
            for format in ["long", "beeps", "codebook", "context", "json", "ics"] {
                let viaAPI = try await call(app, .GET, "/api/v1/research/studies/study-a/exports/\(format)", token: secret)
                #expect(viaAPI.status == .ok, "\(format)")
                let file = TestScratch.file("export-\(format)")
                let cli = await runCommand(["export", "--study", "study-a", "--format", format, "--output", file.path, "--data", data.path])
                #expect(cli.code == 0, "\(cli.errors)")
                // An iCalendar's DTSTAMP is when the file was made (RFC 5545, METHOD:PUBLISH): the
                // one part of any of these that differs between two exports a second apart.
                func withoutStamps(_ data: Data) -> String {
                    String(decoding: data, as: UTF8.self).split(separator: "\r\n").filter { !$0.hasPrefix("DTSTAMP:") }.joined(separator: "\n")
                }
                #expect(withoutStamps(Data(buffer: viaAPI.body)) == withoutStamps(try Data(contentsOf: file)), "\(format) differs")
            }
            let wide = try await call(app, .GET, "/api/v1/research/studies/study-a/exports/wide?survey=Feelings&bom=yes", token: secret)
            let file = TestScratch.file("export-wide")
            let cli = await runCommand(["export", "--study", "study-a", "--format", "wide", "--survey", "Feelings", "--bom", "--output", file.path, "--data", data.path])
            #expect(cli.code == 0, "\(cli.errors)")
            #expect(Data(buffer: wide.body) == (try Data(contentsOf: file)))
        }
    }

    @Test("momentary tokens create prints the token alone on its last line; list and revoke find it")
    func commandLine() async throws {
        let data = try TestScratch.folder("tokens-cli").path
        #expect(await runCommand(["migrate", "--data", data]).code == 0)
        #expect(await runCommand(["researchers", "create", "--email", "lab@example.org", "--role", "Researcher", "--password", "long enough pass", "--data", data]).code == 0)
        let refused = await runCommand(["tokens", "create", "--researcher", "lab@example.org", "--expires-in-days", "400", "--data", data])
        #expect(refused.code == 2)
        #expect(refused.errors.contains("365"))
        let made = await runCommand(["tokens", "create", "--researcher", "lab@example.org", "--read-only", "--name", "nightly, R", "--data", data])
        #expect(made.code == 0, "\(made.errors)")
        let secret = try #require(made.output.split(separator: "\n").last.map(String.init))
        #expect(secret.hasPrefix("mom_") && secret.count == 44)
        let list = await runCommand(["tokens", "list", "--data", data])
        #expect(list.output.contains("\"nightly, R\""))
        #expect(!list.output.contains(secret))
        let id = try #require(list.output.split(separator: "\n").dropFirst().first?.split(separator: ",").first.map(String.init))
        #expect(await runCommand(["tokens", "revoke", id, "--data", data]).code == 0)
        #expect(await runCommand(["tokens", "revoke", id, "--data", data]).code == 1)

        // The Researcher role may not send beeps, so its tokens may not trigger them; a Developer's may.
        let noBeeps = await runCommand(["tokens", "create", "--researcher", "lab@example.org", "--trigger-beeps", "--data", data])
        #expect(noBeeps.code == 2)
        #expect(noBeeps.errors.contains("may not send beeps"))
        #expect(await runCommand(["researchers", "create", "--email", "eeg@example.org", "--role", "Developer", "--password", "long enough pass", "--data", data]).code == 0)
        let trigger = await runCommand(["tokens", "create", "--researcher", "eeg@example.org", "--trigger-beeps", "--name", "EEG", "--data", data])
        #expect(trigger.code == 0, "\(trigger.errors)")
        #expect(trigger.errors.contains("may beep participants"))
        let listed = await runCommand(["tokens", "list", "--researcher", "eeg@example.org", "--data", data]).output.split(separator: "\n")
        #expect(listed.first?.contains("read_only,triggers_beeps,") == true)
        #expect(listed.last?.contains(",EEG,") == true && listed.last?.contains(",false,true,") == true)
    }
}
