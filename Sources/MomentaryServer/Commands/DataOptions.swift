import ArgumentParser
import Foundation

/// The options every command that opens the database shares.
struct DataOptions: ParsableArguments {
    @ArgumentParser.Option(name: .customLong("data"), help: ArgumentHelp(
        "Data directory holding the SQLite file and uploaded files (default ./data, or MOMENTARY_DATA_DIR).",
        valueName: "dir"))
    var dataDirectory: String?

    func loadConfiguration() throws -> Configuration {
        try Configuration.load(dataDirectoryOverride: dataDirectory)
    }
}
