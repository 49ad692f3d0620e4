import Foundation
import MomentaryCore

/// What importing a set of Reporter reports will store, worked out before anything is: the survey
/// (`ReporterSurveyInference`), each report's zone (`ReporterZoneInference`) and its answers,
/// validated against that survey. Every problem is found here, named by file and field.
struct ReporterImportPlan {
    struct Entry {
        let report: ReporterReport
        let zone: TimeZone
        let answers: [ValidatedAnswer]
        /// The question each of the report's responses is stored under, in file order.
        let questionIDs: [String]
    }

    let document: SurveyDocument
    let entries: [Entry]
    /// Answers Momentary cannot hold as answers (a place with no position): stored as skipped,
    /// and kept, like everything else, as the file had them.
    let keptOnly: Int

    /// `reports` in time order; `fallback` is the zone for reports that tell none (the study's).
    init(reports: [ReporterReport], files: [ReporterSourceFile], fallback: TimeZone) throws(ReporterImporter.Refusal) {
        let inference = ReporterSurveyInference(days: files.map(\.day))
        document = inference.document
        let zones = ReporterZoneInference.zones(for: reports.map(\.zoneEvidence), fallback: fallback)
        var entries: [Entry] = []
        var problems: [String] = []
        var keptOnly = 0
        for (report, zone) in zip(reports, zones) {
            var submitted: [SubmittedAnswer] = []
            var questionIDs: [String] = []
            for response in report.snapshot.responses {
                // Every prompt of the files has a question: the inference is made from them.
                let id = inference.questionID(for: response)!
                questionIDs.append(id)
                guard let answer = response.answer else { continue }
                guard let question = document.question(withID: id), let value = ReporterAnswerMapping.answerValue(answer, for: question) else {
                    keptOnly += 1
                    continue
                }
                submitted.append(SubmittedAnswer(questionID: id, answer: value))
            }
            do {
                let validated = try AnswerValidator.validate(submitted, against: document)
                // A question the report did not ask was not presented; one it asked and left
                // unanswered was skipped.
                let asked = Set(questionIDs)
                let answers = validated.map { answer in
                    asked.contains(answer.questionID) ? answer
                        : ValidatedAnswer(questionID: answer.questionID, questionType: answer.questionType, status: .notPresented)
                }
                entries.append(Entry(report: report, zone: zone, answers: answers, questionIDs: questionIDs))
            } catch {
                for problem in error.errors {
                    let index = questionIDs.firstIndex(of: problem.questionID).map { "[\($0)]" } ?? ""
                    problems.append("\(report.place).responses\(index): \(problem.message)")
                }
            }
        }
        guard problems.isEmpty else { throw ReporterImporter.Refusal(problems: problems) }
        self.entries = entries
        self.keptOnly = keptOnly
    }
}

extension ReporterReport {
    fileprivate var zoneEvidence: ReporterZoneInference.Report {
        ReporterZoneInference.Report(
            instant: snapshot.date.instant, offsetSeconds: snapshot.date.utcOffsetSeconds,
            latitude: snapshot.location?.latitude, longitude: snapshot.location?.longitude)
    }
}
