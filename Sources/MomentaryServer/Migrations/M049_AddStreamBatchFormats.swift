import Fluent

/// `stream_batches.format`: the phone's column set of the batch (`iOS` or `Android`, see
/// `PassiveStream.formats`), so an export knows its header without opening the files; NULL for
/// batches from before, which were all iOS's. `stream_batches.beiwe_survey_id`: the Beiwe survey
/// a survey_answers or survey_timings file was recorded for (the folder of a Beiwe data download),
/// which the phone's format has no column for and `export streams --beiwe-download` writes back.
struct M049_AddStreamBatchFormats: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("stream_batches").field("format", .string).update()
        try await database.schema("stream_batches").field("beiwe_survey_id", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("stream_batches").deleteField("beiwe_survey_id").update()
        try await database.schema("stream_batches").deleteField("format").update()
    }
}
