import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Public statistics")
struct PublicStatisticsTests {
    static let london = (latitude: 51.5007, longitude: -0.1246)

    static func response(happy: Double, minutesAgo: Double, located: Bool) -> ResponseSubmission {
        var submission = PersonalDataTests.response(happy: happy, place: "home", minutesAgo: minutesAgo, located: false)
        if located {
            submission.context = MomentaryCore.ResponseContext(location: LocationFix(
                latitude: london.latitude, longitude: london.longitude, horizontalAccuracy: 10, timestamp: submission.startedAt))
        }
        return submission
    }

    @Test("hedonimeter by country, hours under 10 answers left out, only good public photos, nothing identifying")
    func statistics() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            var tokyoRegistration = APIFixture.registration(seed: 2)
            tokyoRegistration.timezone = "Asia/Tokyo"
            let (london, londoner) = try await APIFixture.register(on: server)
            let (tokyo, tokyoite) = try await APIFixture.register(on: server, tokyoRegistration)
            // London: 12 located answers inside one UTC hour two hours ago (that hour is shown), Tokyo:
            // 11 without a location, an hour apart (each hour too thin to show).
            let hourStart = PublicStatisticsRules.hour(of: Date()).addingTimeInterval(-2 * 3600)
            let minutesToHourStart = Date().timeIntervalSince(hourStart) / 60
            for index in 0..<12 {
                let minutesAgo = minutesToHourStart - 10 - Double(index) * 0.5
                _ = try await london.submitResponse(Self.response(happy: Double(40 + index * 5), minutesAgo: minutesAgo, located: true))
            }
            for index in 0..<11 {
                _ = try await tokyo.submitResponse(Self.response(happy: 20, minutesAgo: 300 + Double(index) * 60, located: false))
            }
            let good = try await london.submitResponse(Self.response(happy: 90, minutesAgo: 10, located: true))
            let dull = try await london.submitResponse(Self.response(happy: 30, minutesAgo: 9, located: true))
            let exif = Data(JPEGMetadataFixture.withGPS)
            let shown = try await london.uploadPhoto(exif, responseID: good.responseID, isPublic: true)
            _ = try await london.uploadPhoto(exif, responseID: dull.responseID, isPublic: true)
            let privatePhoto = try await tokyo.uploadPhoto(exif, responseID: try await tokyo.submitResponse(
                Self.response(happy: 95, minutesAgo: 5, located: true)).responseID, isPublic: false)

            let path = "/api/v1/studies/demo/statistics"
            #expect(try await RawHTTP.send(server.baseURL, "GET", path, body: nil).status == 503, "on, but not refreshed yet")
            #expect(await PublicStatisticsService.refreshAll(on: server.db, now: Date(), logger: server.app.logger) == 1)
            let answer = try await RawHTTP.fetch(server.baseURL, path)
            #expect(answer.status == 200 && answer.headers["access-control-allow-origin"] == "*")
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let statistics = try decoder.decode(PublicStatistics.self, from: answer.body)
            #expect(statistics.participants == 2 && statistics.responses == 26)
            #expect(statistics.hedonimeter.overall.responses == 26)
            let regions = Dictionary(uniqueKeysWithValues: statistics.hedonimeter.regions.map { ($0.region, $0.reading) })
            #expect(regions["GB"]?.responses == 15 && regions["JP"]?.responses == 11,
                    "the Tokyo participant's answer located in London counts for GB; the rest by their zone")
            #expect(regions["JP"]?.mean == 20 && regions["JP"]?.latest25Mean == 20)
            #expect(statistics.hours.count == 1 && statistics.hours.first?.responses == 12, "only the London hour has 10 or more")
            #expect(statistics.photos.count == 1, "public and rated at least 70 % of the scale")
            let photo = try #require(statistics.photos.first)
            #expect(photo.latitude == 51.5 && photo.longitude == -0.12 && photo.rating == 90)
            #expect(photo.url.hasSuffix("\(shown.photoID.uuidString.lowercased()).jpg"))

            // Nothing that identifies anyone, in the JSON or on the page.
            let page = try await RawHTTP.send(server.baseURL, "GET", "/studies/demo/public", body: nil)
            #expect(page.status == 200 && page.body.contains("<svg") && !page.body.contains("<script"))
            let labels = try await Participant.query(on: server.db).all().compactMap(\.label)
            for text in [String(decoding: answer.body, as: UTF8.self), page.body] {
                for secret in [londoner.participantID.uuidString, tokyoite.participantID.uuidString] + labels + ["51.5007", "-0.1246"] {
                    #expect(!text.lowercased().contains(secret.lowercased()), "\(secret) appears in public output")
                }
            }

            let served = try await RawHTTP.fetch(server.baseURL, photo.url)
            #expect(served.status == 200 && served.headers["content-type"] == "image/jpeg")
            #expect(!String(decoding: served.body, as: UTF8.self).contains("GPS") && !String(decoding: served.body, as: UTF8.self).contains("Exif"))
            let hidden = "/studies/demo/public/photos/\(privatePhoto.photoID.uuidString.lowercased()).jpg"
            #expect(try await RawHTTP.fetch(server.baseURL, hidden).status == 404, "a private photo is never served")

            let again = try await RawHTTP.fetch(server.baseURL, path, headers: ["If-None-Match": answer.headers["etag"] ?? ""])
            #expect(again.status == 304)

            let study = try #require(try await Study.query(on: server.db).filter(\.$slug == "demo").first())
            study.publicStatisticsEnabled = false
            try await study.save(on: server.db)
            #expect(try await RawHTTP.send(server.baseURL, "GET", path, body: nil).status == 404)
            #expect(try await RawHTTP.send(server.baseURL, "GET", "/studies/demo/public", body: nil).status == 404)
        }
    }

    @Test("regions come from the nearest zone.tab city, else the participant's zone")
    func regions() {
        let lookup = RegionLookup(zoneTab: ZoneTab(text: "#comment\nGB\t+513030-0000731\tEurope/London\nFR\t+4852+00220\tEurope/Paris\nJP\t+353916+1394441\tAsia/Tokyo\n"))
        #expect(lookup.region(latitude: 51.2, longitude: 0.5, timeZone: "Asia/Tokyo") == "GB")
        #expect(lookup.region(latitude: 48.5, longitude: 2.9, timeZone: nil) == "FR")
        #expect(lookup.region(latitude: nil, longitude: nil, timeZone: "Asia/Tokyo") == "JP")
        #expect(lookup.region(latitude: nil, longitude: nil, timeZone: "Mars/Olympus") == RegionLookup.unknown)
        let parsed = ZoneTab.coordinates("+513030-0000731")
        #expect(parsed.map { abs($0.0 - 51.508333) < 1e-4 && abs($0.1 + 0.125278) < 1e-4 } == true)
    }
}

/// A small JPEG carrying a GPS position in its EXIF block.
enum JPEGMetadataFixture {
    static let withGPS = [UInt8](TestJPEG.make(exif: "GPSLatitude 51.5007 GPSLongitude -0.1246"))
}
