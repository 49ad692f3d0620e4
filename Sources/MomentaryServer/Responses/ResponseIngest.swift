import Fluent
import Vapor

/// What ingest keeps for the life of the application: the one writer that commits responses in
/// batches, and the parsed survey versions answers are validated against.
struct ResponseIngest: Sendable {
    let writer: ResponseWriter
    let versions: ParsedSurveyVersions
}

extension Application {
    private struct ResponseIngestKey: StorageKey {
        typealias Value = ResponseIngest
    }

    /// Installed by `configure(_:_:)`; its writer uses connections of its own (`DatabaseID.ingest`),
    /// so a batch being committed never holds the connection a request reads with.
    var responseIngest: ResponseIngest {
        get {
            guard let ingest = storage[ResponseIngestKey.self] else {
                fatalError("configure(_:_:) installs response ingest before a request is served")
            }
            return ingest
        }
        set { storage[ResponseIngestKey.self] = newValue }
    }
}

/// Stores what is queued for the writer before the databases close. Registered in `configure`
/// after the databases, so it shuts down before them (Vapor shuts handlers down in reverse).
struct ResponseWriterLifecycle: LifecycleHandler {
    func shutdownAsync(_ application: Application) async {
        await application.responseIngest.writer.close()
    }
}
