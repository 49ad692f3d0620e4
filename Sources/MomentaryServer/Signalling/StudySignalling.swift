import Fluent
import Foundation
import MomentaryCore

/// What planning and delivery need to know about a study: its style, sampling rules, alert
/// text, safeguard limit, and the fixed rules of its active ESM surveys (in survey order).
struct StudySignalling: Sendable {
    /// A survey's fixed rules, parsed.
    struct FixedRules: Sendable {
        let surveyID: UUID
        var surveyName = ""
        let document: FixedScheduleDocument
    }

    let studyID: UUID
    let serverScheduled: Bool
    let randomSampling: Bool
    let minimumGapMinutes: Int
    let defaultTimeZone: String
    /// The notification's text in each of the study's languages (`languages`, the first the default).
    let alertText: LocalizedText
    let maxDueAtOnce: Int
    let fixedRules: [FixedRules]
    var end = StudyEnd()
    var sampling = SamplingMethod.uniform
    /// The days random beeps come on; nil for every day.
    var samplingDays: SamplingDays? = nil
    var answerWindow = AnswerWindow()
    /// The reminders' text; nil repeats `alertText`.
    var reminderAlertText: LocalizedText? = nil
    var languages = StudyLanguages.default
    /// The study's arms, if it has any (`StudyArms`).
    var arms: StudyArms? = nil
    /// The active beep surveys in survey order (read with the fixed rules), from which an arm's
    /// random beeps take their survey.
    var beepSurveys: [(id: UUID, name: String)] = []

    /// The beep's notification text in the participant's language (their arm's, if it has one).
    func alert(for participant: Participant, reminder: Bool = false) -> String {
        let studyText = arms?.arm(named: participant.arm)?.alertText ?? alertText
        let text = reminder ? reminderAlertText ?? studyText : studyText
        return text.resolved(for: participant.language.map { [$0] } ?? [], languages: languages)
    }

    /// The studies with these ids, by id. A schedule document that no longer parses is skipped
    /// with a warning (the website validates documents before saving, so this means a bug or a
    /// hand edit; one bad survey must not stop the others' beeps).
    /// Delivery needs no rules: `includingFixedRules: false` skips reading them.
    static func load(
        _ studyIDs: Set<UUID>, includingFixedRules: Bool = true, on db: any Database
    ) async throws -> [UUID: StudySignalling] {
        guard !studyIDs.isEmpty else { return [:] }
        let ids = Array(studyIDs)
        let studies = try await Study.query(on: db).filter(\.$id ~~ ids).all()
        var surveys = [Survey]()
        var documentBySurvey = [UUID: String]()
        if includingFixedRules {
            surveys = try await Survey.query(on: db)
                .filter(\.$study.$id ~~ ids).filter(\.$kind == .esm).filter(\.$active == true)
                .sort(\.$position).all()
            let surveyIDs = surveys.compactMap(\.id)
            if !surveyIDs.isEmpty {
                let schedules = try await Schedule.query(on: db).filter(\.$survey.$id ~~ surveyIDs).all()
                for schedule in schedules { documentBySurvey[schedule.$survey.id] = schedule.document }
            }
        }
        var rulesByStudy = [UUID: [FixedRules]]()
        for survey in surveys {
            guard let surveyID = survey.id, let text = documentBySurvey[surveyID] else { continue }
            do {
                let document = try FixedScheduleDocument.parse(Data(text.utf8))
                rulesByStudy[survey.$study.id, default: []].append(FixedRules(surveyID: surveyID, surveyName: survey.name, document: document))
            } catch {
                db.logger.warning("Skipping the fixed schedule of survey \(surveyID): \(error.description)")
            }
        }
        var result = [UUID: StudySignalling]()
        for study in studies {
            guard let id = study.id else { continue }
            result[id] = StudySignalling(
                studyID: id, serverScheduled: study.scheduling == .server, randomSampling: study.randomSampling,
                minimumGapMinutes: study.minGapMinutes, defaultTimeZone: study.defaultTimeZone,
                alertText: study.localizedText(of: .alertText) ?? LocalizedText(study.alertText), maxDueAtOnce: study.maxDueAtOnce, fixedRules: rulesByStudy[id] ?? [],
                end: study.end, sampling: study.samplingMethod, samplingDays: study.samplingDayRanges,
                answerWindow: study.answerWindow, reminderAlertText: study.localizedText(of: .reminderAlertText),
                languages: study.languages, arms: study.arms,
                beepSurveys: surveys.filter { $0.$study.id == id }.compactMap { survey in survey.id.map { ($0, survey.name) } })
        }
        return result
    }
}
