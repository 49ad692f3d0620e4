import ArgumentParser
import Fluent
import Foundation
import MomentaryCore

extension ImportCommand {
    /// `momentary import participant-dates --study S FILE`: participants' named dates from a
    /// spreadsheet (`participant,name,date`), checked by the website's rule, all or nothing.
    struct ParticipantDatesFile: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "participant-dates",
            abstract: "Set participants' named dates (such as a surgery date) from a CSV file of participant,name,date.",
            discussion: """
                The first line is the header participant,name,date. Each row gives a participant (label or \
                id), one of the study's participant dates by name and the date (YYYY-MM-DD; empty clears it). \
                Every row is checked first and nothing is set if any is wrong; each problem is listed by line. \
                The participants' beeps are replanned at once, as when a date is set on the website.
                """)

        @ArgumentParser.Option(help: "The study's slug.") var study: String
        @ArgumentParser.Argument(help: ArgumentHelp("The CSV file.", valueName: "file")) var file: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let text: String
            do {
                text = try String(contentsOf: URL(fileURLWithPath: file), encoding: .utf8)
            } catch {
                throw CommandFailure.usage("Cannot read \(file) as UTF-8 text: \(error.localizedDescription)")
            }
            let rows = try Self.rows(of: text)
            try await withDatabase(data) { db in
                let study = try await StudyLookup.bySlug(study, on: db)
                let changes = try await Self.check(rows, in: study, on: db)
                let now = Date()
                for (participant, dates) in changes {
                    try await ParticipantDateService.set(dates, of: participant, on: db, now: now)
                }
                CommandOutput.line("Set \(rows.count) date(s) of \(changes.count) participant(s); their beeps were replanned.")
            }
        }

        typealias Row = (line: Int, participant: String, name: String, date: String)

        /// The data rows, after the header; a malformed file is refused with its line.
        static func rows(of text: String) throws -> [Row] {
            let records = StreamCSV.records(Substring(text)).filter { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
            guard let header = records.first else { throw CommandFailure.usage("The file is empty; its first line must be participant,name,date.") }
            let names = StreamCSV.fields(of: header.text).map { unquoted($0).lowercased() }
            guard names == ["participant", "name", "date"] else {
                throw CommandFailure.usage("The first line must be participant,name,date, not “\(header.text.prefix(80))”.")
            }
            var rows: [Row] = []
            for record in records.dropFirst() {
                let fields = StreamCSV.fields(of: record.text).map(unquoted)
                guard fields.count == 3 else {
                    throw CommandFailure.usage("Line \(record.line) has \(fields.count) field(s); each row is participant,name,date.")
                }
                rows.append((record.line, fields[0], fields[1], fields[2]))
            }
            return rows
        }

        /// Each participant with their dates after the file's changes; every problem, by line, refuses all.
        static func check(_ rows: [Row], in study: Study, on db: any Database) async throws -> [(Participant, [String: LocalDate])] {
            var problems: [String] = []
            var byParticipant: [UUID: (participant: Participant, changes: [String: String])] = [:]
            var order: [UUID] = []
            for row in rows {
                do {
                    let participant = try await ParticipantLookup.find(row.participant, inStudy: study, on: db)
                    let id = try participant.requireID()
                    if byParticipant[id] == nil { order.append(id) }
                    var entry = byParticipant[id] ?? (participant, [:])
                    guard entry.changes[row.name] == nil else {
                        problems.append("line \(row.line): “\(row.name)” of \(row.participant) is given twice")
                        continue
                    }
                    entry.changes[row.name] = row.date
                    _ = try ParticipantDateService.applying([row.name: row.date], to: participant, study: study)
                    byParticipant[id] = entry
                } catch let refusal as ParticipantDateService.Refusal {
                    problems.append("line \(row.line): \(refusal.description)")
                } catch let failure as CommandFailure {
                    problems.append("line \(row.line): \(failure.description)")
                }
            }
            guard problems.isEmpty else {
                throw CommandFailure("Nothing was set:\n" + problems.map { "  \($0)" }.joined(separator: "\n"))
            }
            return try order.map { id in
                let entry = byParticipant[id]!
                return (entry.participant, try ParticipantDateService.applying(entry.changes, to: entry.participant, study: study))
            }
        }

        private static func unquoted(_ field: Substring) -> String {
            let text = field.trimmingCharacters(in: .whitespaces)
            guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
            return String(text.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
        }
    }
}
