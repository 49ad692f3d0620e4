import Fluent

/// The blob sweep (`BlobSweep`) asks which files on disk have a row; without an index on the path
/// each of its questions would read the whole `blobs` table.
struct M044_IndexBlobStoragePaths: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SQLIndex.create("blobs_storage_path", on: "blobs", columns: ["storage_path"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("blobs_storage_path", in: database)
    }
}
