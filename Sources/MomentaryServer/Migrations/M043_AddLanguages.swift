import Fluent
import SQLKit

/// Multilingual studies: `studies.languages` (a JSON list of BCP 47 tags, the first the
/// default), `studies.translations` (a JSON object of field → tag → text for the study's own texts
/// in languages other than the default, whose texts stay in their columns), the language each
/// participant chose (`participants.language`; null is the study's default) and the language each
/// response was given in (`responses.language`). Existing studies were English only, so their
/// participants and responses are marked `en`.
struct M043_AddLanguages: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("studies").field("languages", .string, .required, .sql(.default(#"["en"]"#))).update()
        try await database.schema("studies").field("translations", .string, .required, .sql(.default("{}"))).update()
        try await database.schema("participants").field("language", .string).update()
        try await database.schema("responses").field("language", .string).update()
        let sql = database.sql
        try await sql.raw("UPDATE participants SET language = 'en'").run()
        try await sql.raw("UPDATE responses SET language = 'en'").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("responses").deleteField("language").update()
        try await database.schema("participants").deleteField("language").update()
        try await database.schema("studies").deleteField("translations").update()
        try await database.schema("studies").deleteField("languages").update()
    }
}
