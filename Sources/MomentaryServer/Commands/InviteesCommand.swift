import ArgumentParser
import Fluent
import Foundation

/// `momentary invitees create|list|restrict`: the researcher's invitation codes on the command line.
struct InviteesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invitees", abstract: "Create, list and restrict invitation codes.",
        subcommands: [Create.self, List.self, Restrict.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create new codes and print them, one per line.")
        @ArgumentParser.Option(help: "The study's slug.") var study: String
        @ArgumentParser.Option(help: "How many codes (1 to 10000).") var count = 1
        @OptionGroup var data: DataOptions

        func run() async throws {
            try await withDatabase(data) { db in
                let study = try await StudyLookup.bySlug(study, on: db)
                let invitees = try await InviteeService.create(count: count, studyID: try study.requireID(), on: db, now: Date())
                for invitee in invitees { CommandOutput.line(invitee.code) }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List codes as CSV: code,study,status,created.")
        @ArgumentParser.Option(help: "Only this study's codes.") var study: String?
        @OptionGroup var data: DataOptions

        func run() async throws {
            try await withDatabase(data) { db in
                let studies = try await Study.query(on: db).all()
                let slugs = Dictionary(uniqueKeysWithValues: studies.compactMap { study in study.id.map { ($0, study.slug) } })
                var query = Invitee.query(on: db)
                if let study {
                    let studyID = try await StudyLookup.bySlug(study, on: db).requireID()
                    query = query.filter(\.$study.$id == studyID)
                }
                let invitees = InviteeService.sorted(try await query.all())
                CommandOutput.line("code,study,status,created")
                for invitee in invitees {
                    let created = invitee.createdAt.formatted(.iso8601)
                    CommandOutput.line("\(invitee.code),\(slugs[invitee.$study.id] ?? ""),\(invitee.status.rawValue),\(created)")
                }
                let counts = Invitee.Status.allCases.map { status in "\(invitees.filter { $0.status == status }.count) \(status.rawValue)" }
                CommandOutput.error("\(invitees.count) codes: \(counts.joined(separator: ", "))")
            }
        }
    }

    struct Restrict: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Restrict a code: its participant is locked out of surveys.")
        @ArgumentParser.Argument(help: "The invitation code.") var code: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            try await withDatabase(data) { db in
                let invitee = try await InviteeService.restrict(code: code, on: db, now: Date())
                CommandOutput.line("\(invitee.code) is now restricted.")
            }
        }
    }
}

/// Opens the configured, migrated database for a command that only reads and writes rows.
func withDatabase<T>(_ data: DataOptions, _ body: (any Database) async throws -> T) async throws -> T {
    let configuration = try data.loadConfiguration()
    return try await AppFactory.withApp(configuration) { app in
        try await ServeCommand.prepareDatabase(app, configuration)
        return try await body(app.db)
    }
}

enum StudyLookup {
    static func bySlug(_ slug: String, on db: any Database) async throws -> Study {
        guard let study = try await Study.query(on: db).filter(\.$slug == slug).first() else {
            let known = try await Study.query(on: db).all(\.$slug).sorted()
            let hint = known.isEmpty ? "there are no studies yet" : "known studies: \(known.joined(separator: ", "))"
            throw CommandFailure("There is no study “\(slug)”; \(hint).")
        }
        return study
    }
}
