import Foundation
import MomentaryClient
import MomentaryCore
import MomentaryServer

/// Answers a survey as the app would: fetch the survey for the beep (or the volunteer survey),
/// fill it in, queue the response in the persistent upload queue and drain the queue.
struct ParticipantResponder {
    let participant: ParticipantState
    let stateURL: URL

    /// The upload queue lives beside the state file, so a response survives the command ending.
    var queueDirectory: URL {
        stateURL.deletingLastPathComponent().appendingPathComponent(stateURL.lastPathComponent + ".queue", isDirectory: true)
    }

    /// Returns one line saying what happened. `answers` nil means random valid answers.
    func answer(beepID: UUID?, answers: [SubmittedAnswer]?) async throws -> String {
        let client = participant.makeClient()
        // Without a beep id the server credits the response to a beep awaiting an answer, if any,
        // so the report must say which (a network failure leaves it unknown: queued either way).
        let waiting = beepID == nil ? (try? await client.status())?.pendingBeep?.id : nil
        let started = Date()
        let delivery = if let beepID { try await client.survey(forBeep: beepID) } else { try await client.volunteerSurvey() }
        let document = try SurveyDocument(json: delivery.document)
        var generator = SystemRandomNumberGenerator()
        let chosen = answers ?? document.randomAnswers(using: &generator)
        let submission = ResponseSubmission(
            idempotencyKey: UUID().uuidString.lowercased(), beepID: beepID, surveyID: delivery.surveyID,
            surveyVersion: delivery.version, startedAt: started, submittedAt: Date(), answers: chosen,
            context: ResponseContext(impetus: beepID == nil ? .button : .notification))
        let queue = try UploadQueue(
            directory: queueDirectory, sender: client.uploadSender, log: { line in CommandOutput.error("momentary: \(line)") })
        _ = try await queue.enqueue(UploadItem.response(submission))
        let report = await queue.drain()
        if report.delivered.contains(where: { if case .response(let sent) = $0.item { sent.idempotencyKey == submission.idempotencyKey } else { false } }) {
            let what = if let beepID { "beep \(beepID.uuidString.lowercased())" }
                else if let waiting { "the waiting beep \(waiting.uuidString.lowercased())" }
                else { "a volunteered survey" }
            return "Answered \(what) (\(chosen.count) answers)."
        }
        if let dead = report.deadLettered.first {
            throw CommandFailure("The server refused the response: \(dead.reason)")
        }
        return "The response is queued (\(report.remaining) waiting); it will be sent when the server can be reached."
    }
}

/// Reads answers from a JSON file: a list of `{question_id, answer}` or an object `{id: answer}`.
enum AnswerFile {
    static func read(_ path: String) throws -> [SubmittedAnswer] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw CommandFailure.usage("Cannot read \(path): \(error.localizedDescription)")
        }
        if let list = try? JSONDecoder().decode([SubmittedAnswer].self, from: data) { return list }
        if let object = try? JSONDecoder().decode([String: JSONValue].self, from: data) {
            return object.keys.sorted().map { SubmittedAnswer(questionID: $0, answer: object[$0]) }
        }
        throw CommandFailure.usage("\(path) must hold [{\"question_id\": …, \"answer\": …}] or {\"question_id\": answer}.")
    }
}

/// Follows the development outbox (one JSON line per push) from its current end.
struct OutboxTail {
    struct Beep { let id: UUID; let alert: String }
    let path: String
    let participantID: UUID

    func beeps() -> AsyncThrowingStream<Beep, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var offset = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64) ?? 0
                var pending = ""
                while !Task.isCancelled {
                    if let handle = FileHandle(forReadingAtPath: path) {
                        try? handle.seek(toOffset: offset)
                        let data = handle.readDataToEndOfFile()
                        try? handle.close()
                        offset += UInt64(data.count)
                        pending += String(decoding: data, as: UTF8.self)
                        while let newline = pending.firstIndex(of: "\n") {
                            let line = String(pending[..<newline])
                            pending.removeSubrange(...newline)
                            if let beep = parse(line) { continuation.yield(beep) }
                        }
                    }
                    try? await Task.sleep(for: .milliseconds(200))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func parse(_ line: String) -> Beep? {
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8)),
              object["participant_id"]?.stringValue.flatMap(UUID.init(uuidString:)) == participantID,
              let id = object["beep_id"]?.stringValue.flatMap(UUID.init(uuidString:))
        else { return nil }
        return Beep(id: id, alert: object["alert"]?.stringValue ?? "")
    }
}
