import ArgumentParser
import Foundation
import MomentaryClient
import MomentaryCore
import MomentaryServer

/// `momentary participant …`: a participant app on the command line, built on MomentaryClient
/// exactly as a phone app is (same client, same persistent upload queue). For piloting a study and
/// for walking the participant path without a phone.
struct ParticipantCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "participant", abstract: "Act as a participant: register, answer beeps, watch for beeps.",
        subcommands: [Register.self, Status.self, Answer.self, Listen.self])

    struct StateOption: ParsableArguments {
        @ArgumentParser.Option(help: "File holding this participant's id and secret (its upload queue lives beside it).")
        var state = "participant.json"

        var url: URL { URL(fileURLWithPath: state) }

        func load() throws -> ParticipantState {
            guard let state = try ParticipantState.load(from: url) else {
                throw CommandFailure("No participant is registered in \(self.state); run `momentary participant register` first.")
            }
            return state
        }
    }

    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Register with a study and save the credentials.")
        @ArgumentParser.Option(help: "The server's base URL.") var server = "http://127.0.0.1:8080"
        @ArgumentParser.Option(help: "The study's slug.") var study: String
        @ArgumentParser.Option(help: "Invitation code, for invitation-only studies.") var invitation: String?
        @ArgumentParser.Flag(help: "Agree to the study's consent text (printed when this is missing).") var consent = false
        @ArgumentParser.Option(help: "IANA time zone (default: this machine's).") var timezone = TimeZone.current.identifier
        @ArgumentParser.Option(help: "Beeps a day (default: the study's).") var beepsPerDay: Int?
        @ArgumentParser.Option(help: "Signalling hours HH:MM-HH:MM (default: the study's).") var hours: String?
        @ArgumentParser.Option(help: "JSON file of registration answers ([{question_id, answer}]); random valid answers otherwise.")
        var answers: String?
        @OptionGroup var state: StateOption

        func run() async throws {
            guard let base = URL(string: server), base.scheme == "http" || base.scheme == "https" else {
                throw CommandFailure.usage("--server must be an http or https URL, not “\(server)”.")
            }
            let client = MomentaryAPIClient(baseURL: base)
            let info = try await client.studyInfo(slug: study)
            guard consent else {
                CommandOutput.line("\(info.name)\n\n\(info.consentText)\n")
                throw CommandFailure.usage("Read the consent text above and pass --consent to agree and register.")
            }
            var settings = info.defaultSettings
            if let beepsPerDay { settings.beepsPerDay = beepsPerDay }
            if let hours {
                let parts = hours.split(separator: "-").map(String.init)
                guard parts.count == 2, let start = TimeOfDay(parts[0]), let end = TimeOfDay(parts[1]) else {
                    throw CommandFailure.usage("--hours must look like 08:00-22:00, not “\(hours)”.")
                }
                settings.start = start
                settings.end = end
            }
            var registrationAnswers: [SubmittedAnswer] = []
            if let answers {
                registrationAnswers = try AnswerFile.read(answers)
            } else if let survey = info.registrationSurvey {
                var generator = SystemRandomNumberGenerator()
                registrationAnswers = try SurveyDocument(json: survey.document).randomAnswers(using: &generator)
            }
            let request = RegistrationRequest(
                study: study, invitationCode: invitation, consent: true, timezone: timezone, settings: settings,
                push: .none, registrationAnswers: registrationAnswers,
                device: DeviceInfo(model: "command line", os: ProcessInfo.processInfo.operatingSystemVersionString, appVersion: "momentary-cli"))
            let registration = try await client.register(request)
            try ParticipantState(serverURL: base, registration: registration).save(to: state.url)
            CommandOutput.line("Registered with “\(info.name)” as participant \(registration.participantID.uuidString.lowercased()).")
            CommandOutput.line("Credentials saved in \(state.state) (keep it private).")
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the home-screen statistics.")
        @OptionGroup var state: StateOption

        func run() async throws {
            let status = try await state.load().makeClient().status()
            CommandOutput.line("responses: \(status.responses)")
            CommandOutput.line("response rate: \(status.responseRate.map { String(format: "%.0f%%", $0 * 100) } ?? "–")")
            CommandOutput.line("typical response time: \(status.typicalResponseSeconds.map { "\(Int($0.rounded())) s" } ?? "–")")
            if let beep = status.pendingBeep {
                CommandOutput.line("pending beep: \(beep.id.uuidString.lowercased()) since \(WireCoding.string(from: beep.scheduledAt))")
            } else {
                CommandOutput.line("pending beep: none")
            }
            if let message = status.message { CommandOutput.line(message) }
        }
    }

    struct Answer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Answer a beep (or volunteer a response) through the upload queue.")
        @ArgumentParser.Option(help: "The beep to answer; without it, the response is volunteered.") var beep: String?
        @ArgumentParser.Option(help: "JSON file of answers: [{question_id, answer}] or {question_id: answer}.") var answers: String?
        @ArgumentParser.Flag(help: "Answer with random valid answers.") var random = false
        @OptionGroup var state: StateOption

        func validate() throws {
            guard (answers != nil) != random else {
                throw ValidationError("Give exactly one of --answers FILE and --random.")
            }
            if let beep, UUID(uuidString: beep) == nil { throw ValidationError("--beep must be a beep id (a UUID), not “\(beep)”.") }
        }

        func run() async throws {
            let participant = try state.load()
            let answers = try answers.map(AnswerFile.read)
            let report = try await ParticipantResponder(participant: participant, stateURL: state.url)
                .answer(beepID: beep.flatMap(UUID.init(uuidString:)), answers: answers)
            CommandOutput.line(report)
        }
    }

    struct Listen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Watch the development push outbox and show (or answer) this participant's beeps as they arrive.")
        @ArgumentParser.Option(help: "The server's outbox file (default MOMENTARY_PUSH_OUTBOX, else push-outbox.jsonl in the data directory).")
        var outbox: String?
        @ArgumentParser.Option(name: .customLong("data"), help: ArgumentHelp(
            "The server's data directory, where its outbox is (default ./data, or MOMENTARY_DATA_DIR).", valueName: "dir"))
        var dataDirectory: String?
        @ArgumentParser.Flag(help: "Answer each beep with random valid answers.") var answer = false
        @ArgumentParser.Option(help: "Stop after this many beeps.") var count: Int?
        @OptionGroup var state: StateOption

        /// The outbox the server in that data directory writes, found by the server's own rule.
        var outboxPath: String {
            if let outbox { return outbox }
            let environment = ProcessInfo.processInfo.environment
            let directory = dataDirectory ?? environment["MOMENTARY_DATA_DIR"].flatMap { $0.isEmpty ? nil : $0 }
                ?? Configuration.defaultDataDirectory
            return OutboxChannel.defaultPath(dataDirectory: URL(fileURLWithPath: directory), environment: environment)
        }

        func run() async throws {
            let participant = try state.load()
            let path = outboxPath
            let responder = ParticipantResponder(participant: participant, stateURL: state.url)
            var seen = 0
            if FileManager.default.fileExists(atPath: path) {
                CommandOutput.line("Waiting for beeps in \(path) (Ctrl-C to stop)…")
            } else {
                CommandOutput.line("Waiting for beeps in \(path), which does not exist yet: is the server running with this data "
                    + "directory (--data or MOMENTARY_DATA_DIR)? It appears with the server's first beep. (Ctrl-C to stop)")
            }
            for try await beep in OutboxTail(path: path, participantID: participant.credentials.participantID).beeps() {
                CommandOutput.line("Beep \(beep.id.uuidString.lowercased()): \(beep.alert)")
                if answer {
                    CommandOutput.line(try await responder.answer(beepID: beep.id, answers: nil))
                }
                seen += 1
                if let count, seen >= count { return }
            }
        }
    }
}
