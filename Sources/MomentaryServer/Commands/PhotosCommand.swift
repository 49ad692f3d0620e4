import ArgumentParser
import Foundation

/// `momentary photos strip-metadata`: removes EXIF and other metadata from every stored photo
/// (those stored before uploads were stripped), printing progress; `serve` does the same once.
struct PhotosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos", abstract: "Stored photos.", subcommands: [StripMetadata.self])

    struct StripMetadata: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "strip-metadata",
            abstract: "Remove EXIF (GPS position, time, camera serial) from photos stored before uploads were stripped.")

        @OptionGroup var data: DataOptions

        func run() async throws {
            let configuration = try data.loadConfiguration()
            try await AppFactory.withApp(configuration) { app in
                try await ServeCommand.prepareDatabase(app, configuration)
                let store = BlobStore(dataDirectory: configuration.dataDirectory)
                let outcome = try await PhotoMetadataCleanup.run(store, on: app.db) { soFar in
                    CommandOutput.line("Checked \(soFar.checked) photos; \(soFar.cleaned) had metadata removed so far.")
                }
                CommandOutput.line("Done: \(outcome.checked) photos checked, \(outcome.cleaned) stripped of their metadata"
                    + (outcome.skipped > 0 ? ", \(outcome.skipped) skipped (file missing or not a readable JPEG)." : "."))
            }
        }
    }
}
