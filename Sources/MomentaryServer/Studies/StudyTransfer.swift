import Fluent
import Foundation
import MomentaryCore

/// Creating, copying, exporting and importing studies.
enum StudyTransfer {
    static func create(slug: String, name: String, invitationOnly: Bool, deviceScheduled: Bool, on db: any Database, now: Date) async throws -> Study {
        if let problem = StudySlug.problem(slug) { throw CommandFailure.usage(problem.prefix(1).uppercased() + problem.dropFirst() + ".") }
        try await requireFreeSlug(slug, on: db)
        let study = Study(slug: slug, name: name, now: now)
        study.invitationOnly = invitationOnly
        study.scheduling = deviceScheduled ? .device : .server
        try await study.create(on: db)
        return study
    }

    /// The study as a document (current survey versions, schedules).
    static func export(_ study: Study, on db: any Database) async throws -> StudyDocument {
        let studyID = try study.requireID()
        let surveys = try await Survey.query(on: db).filter(\.$study.$id == studyID).sort(\.$position).all()
        var entries: [StudyDocument.SurveyEntry] = []
        for survey in surveys {
            let version = try await SurveyCatalog.currentVersion(of: survey, on: db)
            let schedule = try await Schedule.query(on: db).filter(\.$survey.$id == survey.requireID()).first()
            entries.append(StudyDocument.SurveyEntry(
                name: survey.name, kind: survey.kind, position: survey.position, active: survey.active,
                document: try SurveyCatalog.document(of: version),
                schedule: try schedule.map { try FixedScheduleDocument.parse(Data($0.document.utf8)) }))
        }
        return document(of: study, surveys: entries)
    }

    /// The study's settings as a document with these survey entries (a new, unsaved study gives
    /// the settings every new study starts with).
    static func document(of study: Study, surveys entries: [StudyDocument.SurveyEntry]) -> StudyDocument {
        StudyDocument(
            format: StudyDocument.currentFormat, slug: study.slug,
            name: study.localizedText(of: .name) ?? "", consentText: study.localizedText(of: .consentText) ?? "",
            invitationOnly: study.invitationOnly, scheduling: study.scheduling, randomSampling: study.randomSampling,
            defaultTimezone: study.defaultTimeZone, minGapMinutes: study.minGapMinutes,
            beepsPerDay: .init(min: study.minBeepsPerDay, max: study.maxBeepsPerDay, default: study.defaultBeepsPerDay),
            defaultHours: .init(start: TimeOfDay(minutes: study.defaultStartMinutes) ?? SignallingSettings.standard.start,
                                end: TimeOfDay(minutes: study.defaultEndMinutes) ?? SignallingSettings.standard.end),
            alertText: study.localizedText(of: .alertText) ?? "", sounds: SignallingPolicy.sounds(of: study), maxDueAtOnce: study.maxDueAtOnce,
            surveys: entries, endsOn: study.endsOn, endsAfterDays: study.endsAfterDays,
            feedbackEnabled: study.feedbackEnabled, dataDownloadEnabled: study.dataDownloadEnabled,
            publicStatisticsEnabled: study.publicStatisticsEnabled, feedbackQuestion: study.feedbackQuestionID,
            messageRepliesAllowed: study.messageRepliesAllowed ? true : nil,
            hoursPolicy: study.signallingRules.hoursPolicy, earliestStart: study.signallingRules.earliestStart,
            latestEnd: study.signallingRules.latestEnd, minimumWindowMinutes: study.minimumWindowMinutes,
            sampling: study.samplingMethod, samplingDays: study.samplingDayRanges,
            answerWindowMinutes: study.answerWindowMinutes, completionMinutes: study.completionMinutes,
            remindersAfterMinutes: study.answerWindow.remindersAfterMinutes, reminderAlertText: study.localizedText(of: .reminderAlertText),
            languages: study.languages == StudyLanguages.default ? nil : study.languages,
            interventions: study.participantDateNames.isEmpty ? nil : study.participantDateNames,
            expectedStreams: study.expectedStreams.isEmpty ? nil : study.expectedStreams.map(\.rawValue),
            participantVariables: study.participantVariables.isEmpty ? nil : study.participantVariables,
            arms: study.arms?.arms, allocation: study.arms?.allocation,
            showArmToParticipants: study.arms.map(\.showArmToParticipants))
    }

    /// Creates a study from a document, all or nothing. `slug` and `name` override the document's.
    /// `acceptingSurveyProblems`: the surveys' own documents are not checked (`problems(checkingSurveys:)`).
    static func importStudy(
        _ original: StudyDocument, slug: String? = nil, name: String? = nil, acceptingSurveyProblems: Bool = false,
        on db: any Database, now: Date
    ) async throws -> Study {
        var renamed = original
        if let slug { renamed.slug = slug }
        if let name { renamed.name = LocalizedText(name) }
        let document = renamed
        let problems = document.problems(checkingSurveys: !acceptingSurveyProblems)
        guard problems.isEmpty else {
            throw CommandFailure("The study document has \(problems.count) problem(s): \(problems.joined(separator: "; ")).")
        }
        try await requireFreeSlug(document.slug, on: db)
        return try await db.transaction { db in
            let study = Study(slug: document.slug, name: document.name.text, now: now)
            try applySettings(of: document, to: study)
            try await study.create(on: db)
            let studyID = try study.requireID()
            for entry in document.surveys {
                let survey = try await SurveyStore.create(
                    studyID: studyID, kind: entry.kind, name: entry.name, position: entry.position,
                    document: try SurveyStore.text(of: entry.document), on: db, now: now)
                if !entry.active {
                    survey.active = false
                    try await survey.save(on: db)
                }
                if let schedule = entry.schedule {
                    try await Schedule(studyID: studyID, surveyID: try survey.requireID(), document: try scheduleText(schedule), updatedAt: now)
                        .create(on: db)
                }
            }
            return study
        }
    }

    /// Every setting of the document (not the slug, not the surveys) written onto the study: one
    /// rule for importing a study and for replacing one's settings through the research API.
    static func applySettings(of document: StudyDocument, to study: Study) throws {
        study.setLanguages(document.studyLanguages)
        study.setText(document.name, of: .name)
        study.setText(document.consentText, of: .consentText)
        study.invitationOnly = document.invitationOnly
        study.scheduling = document.scheduling
        study.randomSampling = document.randomSampling
        study.defaultTimeZone = document.defaultTimezone
        study.minGapMinutes = document.minGapMinutes
        study.minBeepsPerDay = document.beepsPerDay.min
        study.maxBeepsPerDay = document.beepsPerDay.max
        study.defaultBeepsPerDay = document.beepsPerDay.default
        study.defaultStartMinutes = document.defaultHours.start.minutes
        study.defaultEndMinutes = document.defaultHours.end.minutes
        study.setText(document.alertText, of: .alertText)
        study.sounds = String(decoding: try JSONEncoder().encode(document.sounds), as: UTF8.self)
        study.maxDueAtOnce = document.maxDueAtOnce
        study.endsOn = document.endsOn
        study.endsAfterDays = document.endsAfterDays
        study.feedbackEnabled = document.feedbackEnabled ?? study.feedbackEnabled
        study.dataDownloadEnabled = document.dataDownloadEnabled ?? study.dataDownloadEnabled
        study.publicStatisticsEnabled = document.publicStatisticsEnabled ?? study.publicStatisticsEnabled
        study.messageRepliesAllowed = document.messageRepliesAllowed ?? false
        study.feedbackQuestionID = document.feedbackQuestion.flatMap { $0.isEmpty ? nil : $0 }
        study.setHoursPolicy(of: document.signallingRules)
        study.sampling = (document.sampling ?? .uniform).rawValue
        study.setSamplingDays(document.samplingDays)
        study.setAnswerWindow(document.answerWindow)
        study.setText(document.reminderAlertText, of: .reminderAlertText)
        study.participantDateNames = document.interventions ?? []
        study.expectedStreams = (document.expectedStreams ?? []).compactMap(PassiveStream.init(rawValue:))
        study.participantVariables = document.participantVariables ?? []
        study.setArms(document.studyArms)
    }

    /// A fixed schedule as it is stored: JSON with sorted keys.
    static func scheduleText(_ schedule: FixedScheduleDocument) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(schedule), as: UTF8.self)
    }

    private static func requireFreeSlug(_ slug: String, on db: any Database) async throws {
        if try await Study.query(on: db).filter(\.$slug == slug).first() != nil {
            throw CommandFailure("A study with the slug “\(slug)” already exists; choose another.")
        }
    }
}
