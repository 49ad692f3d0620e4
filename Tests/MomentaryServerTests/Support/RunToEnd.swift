import Foundation
@testable import MomentaryServer

/// Runs a program to its end and returns its exit status and what it printed (standard output
/// and error together).
func runToEnd(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let pipe = Pipe()
    let child = try ChildProcess(
        executable, arguments, standardOutput: pipe.fileHandleForWriting.fileDescriptor, standardError: pipe.fileHandleForWriting.fileDescriptor)
    try pipe.fileHandleForWriting.close()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    return (child.waitForExit(), String(decoding: output, as: UTF8.self))
}
