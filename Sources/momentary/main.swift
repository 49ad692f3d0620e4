import Foundation
import MomentaryCLI
import MomentaryServer

// Thin executable: where tasks run and logging for the process, then the command line.
let environment = ProcessInfo.processInfo.environment
ConcurrencyExecutor.useEventLoops(environment: environment)
LoggingSetup.bootstrap(format: (try? Configuration.logFormat(from: environment)) ?? .text, environment: environment)
exit(await MomentaryMain.run(Array(CommandLine.arguments.dropFirst())))
