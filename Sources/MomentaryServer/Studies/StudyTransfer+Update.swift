import Fluent
import Foundation
import MomentaryCore

extension StudyTransfer {
    /// What replacing a study's document changed.
    struct Update: Sendable, Encodable {
        /// Surveys given a new version (their document differed from the current one).
        var versioned: [String] = []
        var added: [String] = []
        /// Surveys the document no longer names: switched off, never deleted (responses refer to them).
        var deactivated: [String] = []
        /// Participants whose planned beeps were replaced because the rules changed.
        var replanned = 0

        enum CodingKeys: String, CodingKey {
            case versioned = "surveys_versioned", added = "surveys_added", deactivated = "surveys_deactivated"
            case replanned = "participants_replanned"
        }
    }

    /// Why a document cannot replace a study's.
    struct UpdateRefusal: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    /// Replaces a study's settings, surveys and fixed schedules by a document's, all or nothing,
    /// under the rules of import (`problems()`) and of the website: a survey whose document
    /// differs gets a new version (earlier answers keep theirs), a survey of a new name is added,
    /// one the document leaves out is switched off, and participants taking part follow changed
    /// rules at once, as after saving the settings page. The slug and a survey's kind cannot change.
    static func update(_ study: Study, to document: StudyDocument, authorID: UUID?, on db: any Database, now: Date) async throws -> Update {
        guard document.slug == study.slug else {
            throw UpdateRefusal(description: "The document's slug is “\(document.slug)”, not “\(study.slug)”: a study's slug cannot change.")
        }
        let problems = document.problems()
        guard problems.isEmpty else {
            throw UpdateRefusal(description: "The study document has \(problems.count) problem(s): \(problems.joined(separator: "; ")).")
        }
        let studyID = try study.requireID()
        let rulesBefore = StudyRoutes.signallingRules(of: study)
        var (update, schedulesChanged) = try await db.transaction { tx -> (Update, Bool) in
            var update = Update()
            var schedulesChanged = false
            try applySettings(of: document, to: study)
            study.updatedAt = now
            try await study.save(on: tx)
            let existing = try await Survey.query(on: tx).filter(\.$study.$id == studyID).all()
            for entry in document.surveys {
                let text = try SurveyStore.text(of: entry.document)
                let survey: Survey
                if let found = existing.first(where: { $0.name == entry.name }) {
                    guard found.kind == entry.kind else {
                        throw UpdateRefusal(description: "The survey “\(entry.name)” is a \(found.kind.rawValue) survey; its kind cannot change to \(entry.kind.rawValue).")
                    }
                    survey = found
                    if try SurveyCatalog.document(of: try await SurveyCatalog.currentVersion(of: found, on: tx)) != entry.document {
                        try await SurveyStore.saveVersion(of: found, document: text, authorID: authorID, on: tx, now: now)
                        update.versioned.append(entry.name)
                    }
                    if found.position != entry.position || found.active != entry.active {
                        found.position = entry.position
                        found.active = entry.active
                        found.updatedAt = now
                        try await found.save(on: tx)
                    }
                } else {
                    survey = try await SurveyStore.create(
                        studyID: studyID, kind: entry.kind, name: entry.name, position: entry.position, document: text, on: tx, now: now)
                    if !entry.active {
                        survey.active = false
                        try await survey.save(on: tx)
                    }
                    update.added.append(entry.name)
                }
                schedulesChanged = try await replaceSchedule(of: survey, with: entry.schedule, studyID: studyID, on: tx, now: now) || schedulesChanged
            }
            for survey in existing where survey.active && !document.surveys.contains(where: { $0.name == survey.name }) {
                survey.active = false
                survey.updatedAt = now
                try await survey.save(on: tx)
                update.deactivated.append(survey.name)
            }
            return (update, schedulesChanged)
        }
        update.replanned = try await participantsFollow(study, rulesBefore: rulesBefore, schedulesChanged: schedulesChanged, on: db, now: now)
        return update
    }

    /// Stores, replaces or removes a survey's fixed schedule; whether anything changed.
    private static func replaceSchedule(
        of survey: Survey, with schedule: FixedScheduleDocument?, studyID: UUID, on db: any Database, now: Date
    ) async throws -> Bool {
        let surveyID = try survey.requireID()
        let stored = try await Schedule.query(on: db).filter(\.$survey.$id == surveyID).first()
        guard let schedule else {
            guard let stored else { return false }
            try await stored.delete(on: db)
            return true
        }
        let text = try scheduleText(schedule)
        if let stored {
            guard (try? FixedScheduleDocument.parse(Data(stored.document.utf8))) != schedule else { return false }
            stored.document = text
            stored.updatedAt = now
            try await stored.save(on: db)
        } else {
            try await Schedule(studyID: studyID, surveyID: surveyID, document: text, updatedAt: now).create(on: db)
        }
        return true
    }

    /// After a study's settings or schedules changed: the public statistics page works at once if
    /// switched on; fixed hours are everyone's hours, so participants taking part move with them;
    /// beeps already planned follow the new rules from now on, not from the next day planned.
    /// Returns how many participants were replanned. The settings page and the research API both
    /// end a change here.
    static func participantsFollow(_ study: Study, rulesBefore: [String], schedulesChanged: Bool, on db: any Database, now: Date) async throws -> Int {
        if study.publicStatisticsEnabled { try await PublicStatisticsService.refresh(study, on: db, now: now) }
        guard schedulesChanged || StudyRoutes.signallingRules(of: study) != rulesBefore else { return 0 }
        if study.signallingRules.hoursPolicy == .fixed {
            try await db.sql.update(Participant.schema)
                .set("signal_start_minutes", to: study.defaultStartMinutes).set("signal_end_minutes", to: study.defaultEndMinutes)
                .where("study_id", .equal, try study.requireID())
                .run()
        }
        return try await BeepPlanner.studyRulesChanged(try study.requireID(), on: db, now: now)
    }
}
