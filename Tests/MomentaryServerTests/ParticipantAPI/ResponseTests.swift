import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Participant API: responses, status and beeps")
struct ResponseTests {
    @Test("an answer without beep_id counts for the waiting beep only if it was begun after that beep was sent")
    func lateUploadIsNotCreditedToANewerBeep() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            let beep = try await APIFixture.deliveredBeep(for: registration.participantID, minutesAgo: 5, on: server.db)
            // Begun offline an hour ago, uploaded now: it was not a reply to the beep of 5 minutes ago.
            var early = APIFixture.submission()
            early.startedAt = Date().addingTimeInterval(-3600)
            early.submittedAt = early.startedAt.addingTimeInterval(40)
            #expect(try await client.submitResponse(early).volunteered)
            #expect(try await Beep.find(beep.id, on: server.db)?.status == .sent)
            // Begun after the beep: it answers it.
            let reply = try await client.submitResponse(APIFixture.submission())
            #expect(!reply.volunteered)
            #expect(try await Beep.find(beep.id, on: server.db)?.status == .answered)
        }
    }

    @Test("a volunteered response is stored with its answers and context")
    func volunteer() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            let survey = try await client.volunteerSurvey()
            #expect(survey.beepID == nil)
            #expect(survey.version == 1)
            let receipt = try await client.submitResponse(APIFixture.submission())
            #expect(receipt.volunteered)
            #expect(receipt.delaySeconds == nil)
            let stored = try #require(try await SurveyResponse.find(receipt.responseID, on: server.db))
            #expect(stored.$participant.id == registration.participantID)
            let answers = try await Answer.query(on: server.db).filter(\.$response.$id == receipt.responseID).sort(\.$position).all()
            let document = SampleSurveys.experienceSampling
            #expect(answers.map(\.questionID) == document.content.map(\.id), "one row per question, in survey order")
            let context = try #require(try await SurveyResponseContext.query(on: server.db).filter(\.$response.$id == receipt.responseID).first())
            #expect(context.latitude == 51.5)
            #expect(context.soundPeakDB == 63)
            #expect(context.connection == "wifi")
        }
    }

    @Test("answering a beep records the delay; status counts the rate (ignored excluded) and the median")
    func answerBeepAndStatus() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            let id = registration.participantID
            let first = try await APIFixture.deliveredBeep(for: id, minutesAgo: 50, status: .expired, on: server.db)
            _ = first
            let ignored = try await APIFixture.deliveredBeep(for: id, minutesAgo: 40, on: server.db)
            try await client.reportIgnored(beepID: ignored.requireID())
            let answered = try await APIFixture.deliveredBeep(for: id, minutesAgo: 10, on: server.db)

            let pending = try await client.status().pendingBeep
            #expect(pending?.id == answered.id)
            let survey = try await client.survey(forBeep: try answered.requireID())
            #expect(survey.beepID == answered.id)
            let submission = APIFixture.submission(beepID: try answered.requireID())
            let receipt = try await client.submitResponse(submission)
            #expect(!receipt.volunteered)
            let delay = try #require(receipt.delaySeconds)
            let sentAt = try #require(answered.sentAt)
            #expect(abs(delay - submission.startedAt.timeIntervalSince(sentAt)) < 0.01, "delay runs from sending to starting: \(delay)")

            let status = try await client.status()
            #expect(status.responses == 1)
            #expect(status.responseRate == 0.5, "1 answered of 2 delivered; the ignored beep does not count")
            #expect(status.typicalResponseSeconds == delay)
            #expect(status.pendingBeep == nil)
            let stored = try #require(try await Beep.find(answered.id, on: server.db))
            #expect(stored.status == .answered)
        }
    }

    @Test("status: the typical response time is the median delay, of an odd and then an even number of answers")
    func statusMedianDelay() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            var delays: [Double] = []
            for minutesAgo in [40.0, 5, 20, 10] {
                let beep = try await APIFixture.deliveredBeep(for: registration.participantID, minutesAgo: minutesAgo, on: server.db)
                delays.append(try #require(try await client.submitResponse(APIFixture.submission(beepID: try beep.requireID())).delaySeconds))
                _ = try await client.submitResponse(APIFixture.submission())
                let status = try await client.status()
                let sorted = delays.sorted()
                let middle = sorted.count / 2
                let median = sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
                #expect(status.typicalResponseSeconds == median, "\(delays)")
                #expect(status.responses == 2 * delays.count, "answered and volunteered responses both count")
                #expect(status.responseRate == 1)
            }
        }
    }

    @Test("the same idempotency key three times stores one response and returns the same receipt")
    func retriedUploadIsOneRow() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, _) = try await APIFixture.register(on: server)
            let submission = APIFixture.submission(key: "retry-me")
            let receipts = [
                try await client.submitResponse(submission),
                try await client.submitResponse(submission),
                try await client.submitResponse(submission),
            ]
            #expect(Set(receipts).count == 1)
            #expect(try await SurveyResponse.query(on: server.db).filter(\.$kind == .esm).count() == 1)
        }
    }

    @Test("a second response to an answered beep (409), an expired beep begun too late (410) or another participant's beep (404) is refused")
    func unanswerableBeeps() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            let (_, other) = try await APIFixture.register(on: server, APIFixture.registration(seed: 2))
            let mine = try await APIFixture.deliveredBeep(for: registration.participantID, minutesAgo: 5, on: server.db)
            let expired = try await APIFixture.deliveredBeep(for: registration.participantID, minutesAgo: 90, status: .expired, on: server.db)
            let theirs = try await APIFixture.deliveredBeep(for: other.participantID, minutesAgo: 5, on: server.db)
            _ = try await client.submitResponse(APIFixture.submission(beepID: try mine.requireID()))

            for (beep, expected) in [(mine, 409), (expired, 410), (theirs, 404)] {
                do {
                    _ = try await client.submitResponse(APIFixture.submission(beepID: try beep.requireID()))
                    Issue.record("a response to beep \(beep.id!) was accepted")
                } catch {
                    #expect(error.httpStatus == expected, "\(error)")
                }
            }
            #expect(try await SurveyResponse.query(on: server.db).filter(\.$kind == .esm).count() == 1)
            let theirsNow = try #require(try await Beep.find(theirs.id, on: server.db))
            #expect(theirsNow.status == .sent, "another participant's beep is untouched")
        }
    }

    @Test("an answer begun after a beep's window closed is refused with 410 beep_expired, the latest delivered one or an older one")
    func beepPastItsWindow() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            var beeps: [Beep] = []
            // The newer is the one the authenticator reads with the credentials; the older is looked up by itself.
            for (sentMinutesAgo, expiredMinutesAgo) in [(30.0, 10.0), (20.0, 5.0)] {
                let beep = try await APIFixture.deliveredBeep(for: registration.participantID, minutesAgo: sentMinutesAgo, on: server.db)
                beep.expiresAt = Date().addingTimeInterval(-expiredMinutesAgo * 60)
                try await beep.save(on: server.db)
                beeps.append(beep)
            }
            for beep in beeps {
                do {
                    _ = try await client.submitResponse(APIFixture.submission(beepID: try beep.requireID()))
                    Issue.record("a response to beep \(beep.id!), past its window, was accepted")
                } catch {
                    guard case .badRequest(410, "beep_expired", let message) = error as? MomentaryClientError else {
                        Issue.record("not 410 beep_expired: \(error)")
                        continue
                    }
                    #expect(message.contains("expired at"), "\(message)")
                }
            }
            #expect(try await SurveyResponse.query(on: server.db).filter(\.$kind == .esm).count() == 0)
            #expect(try await client.status().pendingBeep == nil, "neither awaits an answer any more")
        }
    }

    @Test("invalid answers are refused with 422 naming the question, and nothing is stored")
    func invalidAnswers() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, _) = try await APIFixture.register(on: server)
            let cases: [(String, [SubmittedAnswer])] = [
                ("unknown question", [SubmittedAnswer(questionID: "favourite_colour", answer: .string("blue"))]),
                ("slider out of range", [SubmittedAnswer(questionID: "happy", answer: .number(250))]),
                ("slider wrong type", [SubmittedAnswer(questionID: "happy", answer: .string("very"))]),
                ("option not offered", [SubmittedAnswer(questionID: "where", answer: .string("on the moon"))]),
            ]
            for (name, answers) in cases {
                var submission = APIFixture.submission()
                submission.answers = answers
                do {
                    _ = try await client.submitResponse(submission)
                    Issue.record("\(name) was accepted")
                } catch {
                    #expect(error.httpStatus == 422, "\(name): \(error)")
                    #expect(error.serverCode == "validation_failed", "\(name)")
                    #expect(error.message.contains("“\(answers[0].questionID)”"), "\(name): \(error.message)")
                }
            }
            #expect(try await SurveyResponse.query(on: server.db).filter(\.$kind == .esm).count() == 0)
            #expect(try await Answer.query(on: server.db).join(SurveyResponse.self, on: \Answer.$response.$id == \SurveyResponse.$id)
                .filter(SurveyResponse.self, \.$kind == .esm).count() == 0)
        }
    }

    @Test("malformed bodies, wrong secrets and oversized uploads get 4xx JSON errors and store nothing")
    func badRequests() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (_, registration) = try await APIFixture.register(on: server)
            let auth = RawHTTP.basic(registration.participantID, registration.secret)
            let wrong = RawHTTP.basic(registration.participantID, String(repeating: "x", count: 20))
            let valid = String(decoding: try WireCoding.makeEncoder().encode(APIFixture.submission()), as: UTF8.self)
            let cases: [(String, String, [String: String], Int, String)] = [
                ("missing fields", #"{"idempotency_key":"k1"}"#, auth, 400, "bad_request"),
                ("wrong types", #"{"idempotency_key":5,"survey_version":"one","started_at":1,"submitted_at":2,"answers":{},"context":[]}"#, auth, 400, "bad_request"),
                ("not JSON", "{{{", auth, 400, "bad_request"),
                ("empty body", "", auth, 400, "bad_request"),
                ("declared text", valid, auth.merging(["Content-Type": "text/plain"]) { $1 }, 415, "unsupported_media_type"),
                ("declared JSON-like", valid, auth.merging(["Content-Type": "application/jsonx"]) { $1 }, 415, "unsupported_media_type"),
                ("wrong secret", valid, wrong, 401, "unauthorized"),
                ("no credentials", valid, [:], 401, "unauthorized"),
                ("oversized", #"{"pad":""# + String(repeating: "a", count: ResponseSubmission.maximumBodyBytes) + #""}"#, auth, 413, "payload_too_large"),
            ]
            for (name, body, headers, status, code) in cases {
                let (received, answer) = try await RawHTTP.post(server.baseURL, "/api/v1/responses", json: body, headers: headers)
                #expect(received == status, "\(name): \(answer)")
                #expect(answer.contains(#""code":"\#(code)""#), "\(name): \(answer)")
            }
            #expect(try await SurveyResponse.query(on: server.db).filter(\.$kind == .esm).count() == 0)

            // JSON declared with other spellings and parameters is JSON all the same.
            for (index, declared) in ["application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8"].enumerated() {
                let body = String(decoding: try WireCoding.makeEncoder().encode(APIFixture.submission(key: "declared-\(index)")), as: UTF8.self)
                let (received, answer) = try await RawHTTP.post(
                    server.baseURL, "/api/v1/responses", json: body, headers: auth.merging(["Content-Type": declared]) { $1 })
                #expect(received == 201, "\(declared): \(answer)")
            }
        }
    }

    @Test("photos: a JPEG is stored once per response; other bytes, other people's responses and big files are refused")
    func photos() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            let (otherClient, _) = try await APIFixture.register(on: server, APIFixture.registration(seed: 3))
            let receipt = try await client.submitResponse(APIFixture.submission())
            let jpeg = TestJPEG.make(Array(repeating: 0x42, count: 1000))

            let photo = try await client.uploadPhoto(jpeg, responseID: receipt.responseID, isPublic: true)
            let again = try await client.uploadPhoto(jpeg, responseID: receipt.responseID, isPublic: true)
            #expect(photo == again)
            let blob = try #require(try await Blob.find(photo.photoID, on: server.db))
            #expect(blob.isPublic)
            #expect(blob.byteCount == jpeg.count)
            #expect(blob.$participant.id == registration.participantID)
            let stored = try BlobStore(dataDirectory: server.configuration.dataDirectory).read(blob.storagePath)
            #expect(stored == jpeg)

            await #expect { try await client.uploadPhoto(Data("GIF89a not a jpeg".utf8), responseID: receipt.responseID, isPublic: false) }
                throws: { ($0 as? MomentaryClientError)?.httpStatus == 415 }
            await #expect { try await otherClient.uploadPhoto(jpeg, responseID: receipt.responseID, isPublic: false) }
                throws: { ($0 as? MomentaryClientError)?.httpStatus == 404 }
            let huge = TestJPEG.make(Array(repeating: 0x42, count: PhotoService.maximumBytes + 10))
            await #expect { try await client.uploadPhoto(huge, responseID: receipt.responseID, isPublic: false) }
                throws: { ($0 as? MomentaryClientError)?.httpStatus == 413 }
            // Only one whole JPEG is a photo: not bytes between its first and last marker, not a
            // ZIP or a page after its end, not a picture a decoder could not hold.
            let refused = [
                Data([0xFF, 0xD8, 0xFF]) + Data("<html><script>alert(1)</script></html>".utf8) + Data([0xFF, 0xD9]),
                jpeg + Data("PK\u{3}\u{4} a zip".utf8),
                TestJPEG.make(width: 65_500, height: 65_500),
                TestJPEG.make().dropLast(2),
            ]
            for bytes in refused {
                await #expect { try await client.uploadPhoto(Data(bytes), responseID: receipt.responseID, isPublic: false) }
                    throws: { ($0 as? MomentaryClientError)?.httpStatus == 415 }
            }
            #expect(try await Blob.query(on: server.db).count() == 1)

            // A phone's EXIF block (its GPS position, its camera) is not kept.
            let located = TestJPEG.make([7, 7], exif: "GPSLatitude 51.5007 GPSLongitude -0.1246 BodySerialNumber 0421")
            let tagged = try await client.uploadPhoto(located, responseID: receipt.responseID, isPublic: false)
            let taggedBlob = try #require(try await Blob.find(tagged.photoID, on: server.db))
            let kept = try BlobStore(dataDirectory: server.configuration.dataDirectory).read(taggedBlob.storagePath)
            #expect(kept == TestJPEG.make([7, 7]), "the same picture without its metadata")
            #expect(taggedBlob.byteCount == kept.count)
        }
    }

    @Test("settings change is validated; push token updates; withdrawal locks the participant out")
    func settingsPushAndWithdraw() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            let newSettings = SignallingSettings(beepsPerDay: 4, start: TimeOfDay("07:00")!, end: TimeOfDay("23:00")!)
            try await client.updateSettings(newSettings)
            await #expect(throws: MomentaryClientError.self) {
                try await client.updateSettings(SignallingSettings(beepsPerDay: 5, start: TimeOfDay("09:00")!, end: TimeOfDay("11:00")!))
            }
            try await client.updatePushToken(.apns(token: "ab12cd34", environment: .sandbox))
            var participant = try #require(try await Participant.find(registration.participantID, on: server.db))
            #expect(participant.beepsPerDay == 4)
            #expect(participant.signalStartMinutes == 7 * 60)
            #expect(participant.pushChannel == "apns")
            #expect(participant.pushToken == "ab12cd34")

            try await client.withdraw()
            participant = try #require(try await Participant.find(registration.participantID, on: server.db))
            #expect(participant.status == .withdrawn)
            await #expect { try await client.submitResponse(APIFixture.submission()) }
                throws: { ($0 as? MomentaryClientError)?.httpStatus == 403 }
        }
    }
}

extension Error {
    var httpStatus: Int? { (self as? MomentaryClientError)?.httpStatus }
    var serverCode: String? { (self as? MomentaryClientError)?.serverCode }
    var message: String { String(describing: self) }
}
