import ArgumentParser
import Fluent
import Foundation

/// `momentary researchers create`: the first account (there is no sign-up on the website).
struct ResearchersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "researchers", abstract: "Create researcher accounts for the website.", subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account; prints a generated password once when none is given.")
        @ArgumentParser.Option(help: "The researcher's email, used to sign in.") var email: String
        @ArgumentParser.Option(help: "The role's name, for example Developer or Researcher.") var role: String
        @ArgumentParser.Option(help: "The name shown on the website (default: the email).") var name: String?
        @ArgumentParser.Option(help: "The password (at least 10 characters); generated when left out.") var password: String?
        @ArgumentParser.Option(help: "Limit the researcher to this study (repeatable); default: every study.") var study: [String] = []
        @OptionGroup var data: DataOptions

        func run() async throws {
            try await withDatabase(data) { db in
                let roleID = try await ResearcherAccounts.roleID(role, on: db)
                var studyIDs: [UUID] = []
                for slug in study { studyIDs.append(try await StudyLookup.bySlug(slug, on: db).requireID()) }
                let (researcher, generated) = try await ResearcherAccounts.create(
                    email: email, name: name ?? "", roleID: roleID, password: password,
                    studyIDs: studyIDs.isEmpty ? nil : studyIDs, on: db, now: SystemTimeSource().now())
                CommandOutput.line("Created \(researcher.email).")
                if let generated {
                    CommandOutput.line("Password: \(generated)")
                    CommandOutput.error("The password is shown only this once.")
                }
            }
        }
    }
}
