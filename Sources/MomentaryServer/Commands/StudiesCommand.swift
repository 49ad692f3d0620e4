import ArgumentParser
import Fluent
import Foundation
import MomentaryCore

/// `momentary studies create|list|export|import`.
struct StudiesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studies", abstract: "Create, list, export and import studies.",
        subcommands: [Create.self, List.self, Export.self, Import.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a study (empty, or a copy of another).")
        @ArgumentParser.Option(help: "Short name used in URLs and registration, e.g. city-moods.") var slug: String
        @ArgumentParser.Option(help: "The study's name as participants see it.") var name: String
        @ArgumentParser.Option(help: "Copy settings, surveys and schedules from this study.") var copyFrom: String?
        @ArgumentParser.Flag(help: "Participants need an invitation code to register.") var invitationOnly = false
        @ArgumentParser.Flag(help: "The app schedules local notifications instead of the server pushing beeps.") var deviceScheduled = false
        @OptionGroup var data: DataOptions

        func run() async throws {
            try await withDatabase(data) { db in
                let study: Study
                if let copyFrom {
                    var document = try await StudyTransfer.export(try await StudyLookup.bySlug(copyFrom, on: db), on: db)
                    if invitationOnly { document.invitationOnly = true }
                    if deviceScheduled { document.scheduling = .device }
                    study = try await StudyTransfer.importStudy(document, slug: slug, name: name, on: db, now: Date())
                } else {
                    study = try await StudyTransfer.create(
                        slug: slug, name: name, invitationOnly: invitationOnly, deviceScheduled: deviceScheduled, on: db, now: Date())
                }
                CommandOutput.line("Created study “\(study.slug)” (\(study.invitationOnly ? "by invitation" : "open"), \(study.scheduling.rawValue)-scheduled).")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List studies as CSV: slug,name,access,scheduling,participants.")
        @OptionGroup var data: DataOptions

        func run() async throws {
            try await withDatabase(data) { db in
                CommandOutput.line("slug,name,access,scheduling,participants")
                for study in try await Study.query(on: db).sort(\.$slug).all() {
                    let participants = try await Participant.query(on: db).filter(\.$study.$id == study.requireID()).count()
                    let name = study.name.contains(",") || study.name.contains("\"")
                        ? "\"" + study.name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : study.name
                    CommandOutput.line("\(study.slug),\(name),\(study.invitationOnly ? "invitation" : "open"),\(study.scheduling.rawValue),\(participants)")
                }
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a study's protocol (settings, surveys, schedules) as JSON.")
        @ArgumentParser.Argument(help: "The study's slug.") var slug: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            try await withDatabase(data) { db in
                let document = try await StudyTransfer.export(try await StudyLookup.bySlug(slug, on: db), on: db)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                CommandOutput.line(String(decoding: try encoder.encode(document), as: UTF8.self))
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a study from an exported JSON document.")
        @ArgumentParser.Argument(help: "The JSON file written by `studies export`.") var file: String
        @ArgumentParser.Option(help: "Use this slug instead of the document's.") var slug: String?
        @ArgumentParser.Option(help: "Use this name instead of the document's.") var name: String?
        @OptionGroup var data: DataOptions

        func run() async throws {
            let contents: Data
            do {
                contents = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw CommandFailure.usage("Cannot read \(file): \(error.localizedDescription)")
            }
            let document: StudyDocument
            do {
                document = try StudyDocument.decode(contents)
            } catch let error as DecodingError {
                throw CommandFailure.usage("\(file) is not a study document: \(DecodingErrorDescription.sentence(for: error))")
            } catch let error as StudyDocument.UnknownFields {
                throw CommandFailure.usage("\(file) cannot be imported: \(error.description).")
            }
            try await withDatabase(data) { db in
                let study = try await StudyTransfer.importStudy(document, slug: slug, name: name, on: db, now: Date())
                CommandOutput.line("Imported study “\(study.slug)” with \(document.surveys.count) survey(s).")
            }
        }
    }
}
