import Fluent
import Foundation

/// A study's public statistics as last refreshed: the JSON served and its ETag.
final class CachedPublicStatistics: Model, @unchecked Sendable {
    static let schema = "public_statistics"

    @ID(key: .id) var id: UUID?
    @Parent(key: "study_id") var study: Study
    @Field(key: "body") var body: String
    @Field(key: "etag") var etag: String
    @Field(key: "refreshed_at") var refreshedAt: Date

    init() {}
}
