import Fluent
import Foundation
import MomentaryCore

/// Stores one planned Reporter report: the response in its zone with its answers and context, then
/// what the file said beyond those columns (`ReporterKept`), worked out against what `export
/// reporter` writes from the rows as stored, so the export gives the file back exactly.
enum ReporterRecording {
    static func record(
        _ entry: ReporterImportPlan.Entry, participant: Participant, survey: Survey, version: Int,
        documents: ParsedSurveyVersions, on db: any Database, now: Date
    ) async throws {
        let snapshot = entry.report.snapshot
        let draft = ResponseRows.Draft(
            participantID: try participant.requireID(), studyID: participant.$study.id, surveyID: try survey.requireID(),
            surveyVersion: version, kind: .esm, beepID: nil, volunteered: true,
            idempotencyKey: ReporterImporter.idempotencyKey(snapshot), startedAt: snapshot.date.instant,
            submittedAt: snapshot.date.instant, receivedAt: now, delaySeconds: nil, timeZone: entry.zone.identifier)
        let context = MomentaryCore.ResponseContext(
            location: snapshot.location?.fix,
            sound: snapshot.audio.map { SoundLevel(averageDB: $0.avg, peakDB: $0.peak) },
            battery: snapshot.battery, connection: snapshot.connection, steps: snapshot.steps, impetus: snapshot.reportImpetus)
        let response = try await ResponseRows.record(draft, answers: entry.answers, context: context, on: db)
        let responseID = try response.requireID()
        // Where Reporter knew the place and weather, they join the context row just written.
        let name = snapshot.location?.placemarkText("name"), country = snapshot.location?.placemarkText("country")
        if name != nil || country != nil || snapshot.weather != nil,
           let row = try await SurveyResponseContext.query(on: db).filter(\.$response.$id == responseID).first() {
            row.placeText = name
            row.country = country
            row.weather = snapshot.weather.map { AnswerRenderer.jsonText(.object($0)) }
            try await row.save(on: db)
        }
        guard let stored = try await SurveyResponse.find(responseID, on: db) else { return }
        let page = try await ReporterResponsePage.load([stored], documents: documents, on: db)
        let written = try await page.written(stored, zone: entry.zone, copyingPhotosTo: nil, from: nil, on: db)
        let kept = ReporterKept(
            file: entry.report.file, fileMembers: entry.report.fileMembers.isEmpty ? nil : entry.report.fileMembers,
            original: entry.report.json, written: written, questions: entry.questionIDs)
        try await SurveyResponse.query(on: db).filter(\.$id == responseID).set(\.$keptAsIs, to: try kept.encodedText()).update()
    }
}
