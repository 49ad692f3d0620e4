import Fluent
import Foundation
import MomentaryCore

/// What an app shows before registering: name, consent, settings choices, registration survey.
enum StudyInfoService {
    /// Every text in the study language that best serves `preferences` (`LanguageTag.choose`).
    static func info(slug: String, preferences: [String] = [], on db: any Database) async throws -> StudyInfo {
        guard let study = try await Study.query(on: db).filter(\.$slug == slug).first() else {
            throw APIError(.studyNotFound, "There is no study “\(slug)”.")
        }
        let registration = try await SurveyCatalog.registrationSurvey(of: try study.requireID(), on: db)
        let language = TextLanguage(preferences: preferences, languages: study.languages)
        var info = StudyInfo(
            slug: study.slug, name: study.text(of: .name, in: language) ?? study.name,
            consentText: study.text(of: .consentText, in: language) ?? study.consentText, invitationOnly: study.invitationOnly,
            scheduling: study.scheduling == .device ? .device : .server,
            beepsPerDay: .init(min: study.minBeepsPerDay, max: study.maxBeepsPerDay, default: study.defaultBeepsPerDay),
            defaultSettings: SignallingSettings(
                beepsPerDay: study.defaultBeepsPerDay,
                start: TimeOfDay(minutes: study.defaultStartMinutes) ?? SignallingSettings.standard.start,
                end: TimeOfDay(minutes: study.defaultEndMinutes) ?? SignallingSettings.standard.end),
            minimumGapMinutes: study.minGapMinutes, sounds: SignallingPolicy.sounds(of: study),
            registrationSurvey: try await registration.asyncMap { try await SurveyCatalog.delivery(of: $0, beepID: nil, in: language, on: db) },
            ready: try await StudyReadiness.check(study, on: db).isReady)
        let rules = study.signallingRules
        info.hoursPolicy = rules.hoursPolicy
        info.earliestStart = rules.earliestStart
        info.latestEnd = rules.latestEnd
        info.minimumWindowMinutes = rules.minimumWindowMinutes
        info.languages = study.languages
        info.language = language.chosen
        info.archived = study.archivedAt != nil
        return info
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
