import Fluent
import Foundation
import Logging
import MomentaryCore
import SQLKit

/// Computes a study's public statistics and keeps the latest copy in `public_statistics`. The
/// server's background work calls `refreshAll` every few minutes; requests only read the copy.
public enum PublicStatisticsService {
    /// Refreshes every study that shows public statistics; returns how many were refreshed. A study
    /// that fails is logged and skipped, so one bad survey cannot stop the others.
    @discardableResult
    public static func refreshAll(on db: any Database, now: Date, logger: Logger) async -> Int {
        let studies: [Study]
        do {
            studies = try await Study.query(on: db).filter(\.$publicStatisticsEnabled == true).all()
        } catch {
            logger.error("Public statistics: cannot list studies: \(String(describing: error))")
            return 0
        }
        var refreshed = 0
        for study in studies {
            do {
                try await refresh(study, on: db, now: now)
                refreshed += 1
            } catch {
                logger.error("Public statistics of “\(study.slug)” not refreshed: \(String(describing: error))")
            }
        }
        return refreshed
    }

    static func refresh(_ study: Study, on db: any Database, now: Date) async throws {
        let statistics = try await compute(study, on: db, now: now)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let body = String(decoding: try encoder.encode(statistics), as: UTF8.self)
        let etag = "\"\(BlobStore.sha256(Data(body.utf8)).prefix(32))\""
        let studyID = try study.requireID()
        let cached = try await CachedPublicStatistics.query(on: db).filter(\.$study.$id == studyID).first() ?? {
            let row = CachedPublicStatistics()
            row.$study.id = studyID
            return row
        }()
        cached.body = body
        cached.etag = etag
        cached.refreshedAt = now
        try await cached.save(on: db)
    }

    static func compute(_ study: Study, on db: any Database, now: Date) async throws -> PublicStatistics {
        let studyID = try study.requireID()
        let sql = db.sql
        let participants = try await Participant.query(on: db).filter(\.$study.$id == studyID).count()
        let responses = try await StudyTallies.byStatus(studyID: studyID, subject: .responses, on: sql)
            .first { $0.status == Survey.Kind.esm.rawValue }?.n ?? 0
        let subject = try await FeedbackService.subject(of: study, on: db)
        let question = subject?.described
        var statistics = PublicStatistics(
            study: study.slug, name: study.name, refreshedAt: now, participants: participants, responses: responses,
            question: question,
            hedonimeter: .init(overall: .init(responses: 0, mean: nil, latest25Mean: nil), regions: [],
                               minimumRegionResponses: PublicStatisticsRules.minimumRegionResponses),
            hours: [], minimumHourResponses: PublicStatisticsRules.minimumHourResponses, photos: [])
        guard let subject else { return statistics }

        let reader = FeedbackRows(studyID: studyID, subject: subject, sql: sql)
        var regions = try await RegionResolver(studyID: studyID, sql: sql)

        // All time, by region: summed in SQL per participant and place, so a refresh reads a
        // few thousand groups rather than every answer.
        var overall = Sums()
        var byRegion: [String: Sums] = [:]
        for group in try await reader.groups() {
            let region = regions.region(group.place, participant: group.participantId)
            overall.add(count: group.answers, sum: group.total)
            byRegion[region, default: Sums()].add(count: group.answers, sum: group.total)
        }
        let shown = byRegion.filter { $0.value.count >= PublicStatisticsRules.minimumRegionResponses }

        // The latest answers, overall and for each region shown, read newest first until each has its share.
        var latest = Latest()
        var regionLatest: [String: Latest] = [:]
        var offset = 0
        while !(latest.isFull && shown.allSatisfy({ regionLatest[$0.key]?.isFull(of: $0.value.count) ?? false })) {
            let page = try await reader.newest(offset: offset, limit: Self.latestPageSize)
            for row in page {
                latest.add(row.value)
                regionLatest[regions.region(row.place, participant: row.participantId), default: Latest()].add(row.value)
            }
            if page.count < Self.latestPageSize { break }
            offset += page.count
        }
        statistics.hedonimeter.overall = overall.reading(latest: latest)
        statistics.hedonimeter.regions = shown
            .map { PublicStatistics.Region(region: $0.key, reading: $0.value.reading(latest: regionLatest[$0.key] ?? Latest())) }
            .sorted { $0.region < $1.region }

        // The past week hour by hour.
        let firstHour = PublicStatisticsRules.hour(of: now).addingTimeInterval(-Double(PublicStatisticsRules.hoursShown - 1) * 3600)
        var hours: [Date: Sums] = [:]
        for row in try await reader.since(firstHour) {
            hours[PublicStatisticsRules.hour(of: row.submittedAt), default: Sums()].add(count: 1, sum: row.value)
        }
        statistics.hours = hours.filter { $0.value.count >= PublicStatisticsRules.minimumHourResponses }
            .map { PublicStatistics.Hour(start: $0.key, responses: $0.value.count, mean: $0.value.sum / Double($0.value.count)) }
            .sorted { $0.start < $1.start }
        statistics.photos = try await reader.photos(
            minimum: PublicStatisticsRules.photoThreshold(subject.described), limit: PublicStatisticsRules.photoCount
        ).map { row in
            PublicStatistics.Photo(
                url: SiteRoute.publicPhoto.path(study.slug, row.id.uuidString.lowercased() + ".jpg"),
                hour: PublicStatisticsRules.hour(of: row.submittedAt),
                latitude: PublicStatisticsRules.rounded(row.latitude), longitude: PublicStatisticsRules.rounded(row.longitude),
                rating: row.value)
        }
        return statistics
    }

    static let latestPageSize = 1_000

    struct Sums {
        var count = 0
        var sum = 0.0

        mutating func add(count: Int, sum: Double) {
            self.count += count
            self.sum += sum
        }

        func reading(latest: Latest) -> PublicStatistics.Reading {
            .init(responses: count, mean: count > 0 ? sum / Double(count) : nil, latest25Mean: latest.mean)
        }
    }

    /// The newest answers, up to `PublicStatisticsRules.latestCount`.
    struct Latest {
        var count = 0
        var sum = 0.0

        var isFull: Bool { count >= PublicStatisticsRules.latestCount }
        func isFull(of total: Int) -> Bool { count >= min(total, PublicStatisticsRules.latestCount) }
        var mean: Double? { count > 0 ? sum / Double(count) : nil }

        mutating func add(_ value: Double) {
            guard !isFull else { return }
            count += 1
            sum += value
        }
    }
}
