import Fluent
import MomentaryCore
import Vapor

/// Handlers of a participant's own settings, feedback, data download and withdrawal.
extension ParticipantAPIRoutes {
    func status(_ request: Request) async throws -> Response {
        let participant = try await request.participantModel()
        return try WireBody.response(try await ParticipantStatusService.status(of: participant, on: request.db, now: timeSource.now()))
    }

    func updateSettings(_ request: Request) async throws -> Response {
        let participant = try await request.activeParticipant()
        let update = try WireBody.decode(SettingsUpdate.self, from: request)
        try await ParticipantSettingsService.updateSettings(update, of: participant, on: request.db, now: timeSource.now())
        return try WireBody.response(participant.signallingSettings)
    }

    func updatePushToken(_ request: Request) async throws -> Response {
        let participant = try await request.activeParticipant()
        let push = try WireBody.decode(PushRegistration.self, from: request)
        try await ParticipantSettingsService.updatePush(push, of: participant, on: request.db, now: timeSource.now())
        return Response(status: .noContent)
    }

    func feedback(_ request: Request) async throws -> Response {
        let participant = try await request.participantModel()
        let summary = try await FeedbackService.summary(for: participant, on: request.db)
        return try FeedbackReply.response(summary, language: participant.language, to: request)
    }

    func enableDataDownload(_ request: Request) async throws -> Response {
        let participant = try await request.activeParticipant()
        let code = try await DataDownloadService.enable(for: participant, on: request.db, now: timeSource.now())
        let url = DataDownloadService.url(code: code, on: request)
        return try WireBody.response(DataDownloadLink(url: url, code: code), status: .created)
    }

    func disableDataDownload(_ request: Request) async throws -> Response {
        let participant = try await request.participantModel()
        try await DataDownloadService.disable(for: participant, on: request.db, now: timeSource.now())
        return Response(status: .noContent)
    }

    func withdraw(_ request: Request) async throws -> Response {
        let participant = try await request.activeParticipant()
        let body = try WireBody.decodeIfPresent(WithdrawRequest.self, from: request) ?? WithdrawRequest()
        try await ParticipantSettingsService.withdraw(participant, deleteData: body.deleteData, blobs: blobs, on: request.db, now: timeSource.now())
        return Response(status: .noContent)
    }
}
