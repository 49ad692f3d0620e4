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
        static let configuration = CommandConfiguration(
            abstract: "Print a study's protocol (settings, surveys, schedules) as JSON, or as a Beiwe study export with --beiwe.",
            discussion: """
                With --beiwe, the JSON is what a Beiwe backend's study import reads ("surveys", "device_settings", \
                "interventions"): each survey with its weekly, absolute and relative fixed rules as Beiwe's \
                schedules, the participant dates as interventions, the expected streams as switches. What Beiwe \
                cannot express is left out and listed on standard error, so standard output can go to a file.
                """)
        @ArgumentParser.Argument(help: "The study's slug.") var slug: String
        @ArgumentParser.Flag(help: "Write a Beiwe study export.") var beiwe = false
        @OptionGroup var data: DataOptions

        func run() async throws {
            try await withDatabase(data) { db in
                let document = try await StudyTransfer.export(try await StudyLookup.bySlug(slug, on: db), on: db)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                guard beiwe else {
                    CommandOutput.line(String(decoding: try encoder.encode(document), as: UTF8.self))
                    return
                }
                let export = BeiweStudyExport(document)
                CommandOutput.line(String(decoding: try encoder.encode(export.json), as: UTF8.self))
                // Standard error, so that standard output is the JSON alone.
                if !export.leftOut.isEmpty {
                    CommandOutput.error("Not in the Beiwe export, or changed on the way (\(export.leftOut.count)):")
                    for line in export.leftOut { CommandOutput.error("  - \(line)") }
                }
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a study from an exported JSON document, or from a Beiwe study export with --beiwe.",
            discussion: """
                With --beiwe, FILE is the JSON a Beiwe backend's study export writes ("surveys" and \
                "device_settings"): its surveys (audio surveys as audio recording questions), their weekly, \
                absolute and relative schedules as fixed rules, its interventions as participant dates, and \
                the streams it switches on. Everything that could not be carried over is listed; a survey \
                with mistakes Beiwe accepted is imported switched off, to be fixed on the website.
                """)
        @ArgumentParser.Argument(help: "The JSON file written by `studies export` (or by Beiwe, with --beiwe).") var file: String
        @ArgumentParser.Option(help: "Use this slug instead of the document's (with --beiwe: instead of one made from the file name).") var slug: String?
        @ArgumentParser.Option(help: "Use this name instead of the document's.") var name: String?
        @ArgumentParser.Flag(help: "FILE is a Beiwe study export.") var beiwe = false
        @OptionGroup var data: DataOptions

        func run() async throws {
            let contents: Data
            do {
                contents = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw CommandFailure.usage("Cannot read \(file): \(error.localizedDescription)")
            }
            if beiwe { return try await importBeiwe(contents) }
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

extension StudiesCommand.Import {
    /// `--beiwe`: converts the Beiwe export, imports it, and lists what was not carried over.
    func importBeiwe(_ contents: Data) async throws {
        let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let chosenSlug = slug ?? StudySlug.suggestion(from: stem)
        let conversion: BeiweStudyConversion
        do {
            conversion = try BeiweStudyConversion(data: contents, slug: chosenSlug, name: name ?? "Beiwe study \(stem)")
        } catch let refusal as BeiweStudyConversion.Refusal {
            throw CommandFailure.usage("\(file) cannot be imported: \(refusal.description)")
        }
        let document = conversion.document
        try await withDatabase(data) { db in
            let study = try await StudyTransfer.importStudy(document, acceptingSurveyProblems: true, on: db, now: Date())
            let off = document.surveys.filter { !$0.active }.count
            let rules = document.surveys.reduce(0) { $0 + ($1.schedule?.rules.count ?? 0) }
            CommandOutput.line("Imported the Beiwe study as “\(study.slug)” with \(document.surveys.count) survey(s)"
                + (off > 0 ? " (\(off) switched off)" : "") + " and \(rules) fixed rule(s).")
            if let names = document.interventions { CommandOutput.line("Participant dates: \(names.joined(separator: ", ")).") }
            if let streams = document.expectedStreams { CommandOutput.line("Expected streams: \(streams.joined(separator: ", ")).") }
            if !conversion.warnings.isEmpty {
                CommandOutput.line("Not carried over, or changed on the way (\(conversion.warnings.count)):")
                for warning in conversion.warnings { CommandOutput.line("  - \(warning)") }
            }
        }
    }
}
