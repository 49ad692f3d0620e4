import Foundation
import MomentaryCLI
import MomentaryServer

// Thin executable: where tasks run and logging for the process, then the command line.
let environment = ProcessInfo.processInfo.environment
do {
    try ConcurrencyExecutor.install(environment: environment)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}
LoggingSetup.bootstrap(format: (try? Configuration.logFormat(from: environment)) ?? .text, environment: environment)
exit(await MomentaryMain.run(Array(CommandLine.arguments.dropFirst())))
