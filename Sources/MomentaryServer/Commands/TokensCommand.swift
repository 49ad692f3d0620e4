import ArgumentParser
import Fluent
import Foundation

/// `momentary tokens create|list|revoke`: researchers' personal access tokens for the research API.
struct TokensCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens", abstract: "Create, list and revoke researchers' personal access tokens for the research API.",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token; prints it alone on the last line, only this once.")
        @ArgumentParser.Option(help: "The researcher the token acts for (never beyond their role and studies).") var researcher: String
        @ArgumentParser.Option(help: "Limit the token to this study (repeatable); default: every study the researcher may see.")
        var study: [String] = []
        @ArgumentParser.Option(help: "Days until it expires (1 to 365).") var expiresInDays = AccessTokens.defaultDays
        @ArgumentParser.Flag(help: "Only reading and exporting, whatever the researcher's role allows.") var readOnly = false
        @ArgumentParser.Flag(help: "May beep participants through the API (for another system that triggers beeps); needs a role that may send beeps.")
        var triggerBeeps = false
        @ArgumentParser.Option(help: "A name to tell the token apart later.") var name = "made on the command line"
        @OptionGroup var data: DataOptions

        func run() async throws {
            try await withDatabase(data) { db in
                let account = try await TokensCommand.account(researcher, on: db)
                do {
                    let (token, secret) = try await AccessTokens.create(
                        for: account, name: name, studySlugs: study, expiresInDays: expiresInDays, readOnly: readOnly,
                        triggersBeeps: triggerBeeps, on: db, now: SystemTimeSource().now())
                    CommandOutput.error("Token “\(token.name)” for \(account.email), expiring \(token.expiresAt.formatted(.iso8601))\(readOnly ? ", read-only" : "")\(triggerBeeps ? ", may beep participants" : ""). It is shown only this once:")
                    CommandOutput.line(secret)
                } catch let refusal as AccessTokens.Refusal {
                    throw CommandFailure.usage(refusal.description)
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List tokens as CSV: id,researcher,name,prefix,read_only,triggers_beeps,expires,last_used,revoked.")
        @ArgumentParser.Option(help: "Only this researcher's tokens.") var researcher: String?
        @OptionGroup var data: DataOptions

        func run() async throws {
            try await withDatabase(data) { db in
                var query = AccessToken.query(on: db).with(\.$researcher).sort(\.$createdAt)
                if let researcher { query = query.filter(\.$researcher.$id == (try await TokensCommand.account(researcher, on: db).requireID())) }
                var csv = CSVWriter()
                csv.record(["id", "researcher", "name", "prefix", "read_only", "triggers_beeps", "expires", "last_used", "revoked"])
                for token in try await query.all() {
                    let fields = [
                        token.id?.uuidString ?? "", token.researcher.email, token.name, token.prefix, String(token.readOnly), String(token.triggersBeeps),
                        token.expiresAt.formatted(.iso8601), token.lastUsedAt?.formatted(.iso8601) ?? "", token.revokedAt?.formatted(.iso8601) ?? "",
                    ]
                    csv.record(fields)
                }
                // CSVWriter ends records with CRLF; the command prints lines.
                for line in String(decoding: csv.bytes, as: UTF8.self).split(separator: "\r\n") { CommandOutput.line(String(line)) }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token at once.")
        @ArgumentParser.Argument(help: "The token's id (from tokens list).") var id: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            try await withDatabase(data) { db in
                guard let tokenID = UUID(uuidString: id), let token = try await AccessToken.find(tokenID, on: db) else {
                    throw CommandFailure("There is no token with the id “\(id)”.")
                }
                guard try await AccessTokens.revoke(tokenID, of: token.$researcher.id, on: db, now: SystemTimeSource().now()) else {
                    throw CommandFailure("The token “\(token.name)” was already revoked.")
                }
                CommandOutput.line("Revoked the token “\(token.name)”.")
            }
        }
    }

    static func account(_ email: String, on db: any Database) async throws -> Researcher {
        let normalized = email.trimmingCharacters(in: .whitespaces).lowercased()
        guard let researcher = try await Researcher.query(on: db).filter(\.$email == normalized).first() else {
            throw CommandFailure("There is no researcher “\(normalized)”.")
        }
        return researcher
    }
}
