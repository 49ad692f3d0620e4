import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, for the server (pg_dump, pg_restore) and the tests
/// (the server binary, aiosmtpd, Python checks, gzip). Not Foundation's `Process`: on Linux its `run()` lists
/// `/proc/self/fd` and copies each entry's whole 256-byte name, reading past the end of the
/// directory buffer; with the ~1,400 descriptors a parallel test run holds, that crashed whole
/// runs (signal 11 in memcpy under `Process.run`). Descriptors from 3 up are closed in the child,
/// as `Process` does, so no child holds another test's pipes or sockets.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    private let exitStatus = Mutex<Int32?>(nil)

    /// Starts `executable` (a path) with `arguments`. A nil standard stream is /dev/null.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
         standardInput: Int32? = nil, standardOutput: Int32? = nil, standardError: Int32? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (source, target, mode) in [(standardInput, Int32(0), O_RDONLY), (standardOutput, 1, O_WRONLY), (standardError, 2, O_WRONLY)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", mode, 0)
            }
        }
        _ = Self.closeFrom.map { $0(&actions, 3) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
        self.pid = pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// The exit status once it has ended (128 + the signal when a signal ended it); nil while running.
    public var status: Int32? {
        exitStatus.withLock { status in
            if status == nil {
                var raw: Int32 = 0
                if waitpid(pid, &raw, WNOHANG) == pid { status = Self.decode(raw) }
            }
            return status
        }
    }

    public var isRunning: Bool { status == nil }

    /// Blocks until the child ends; returns its status.
    @discardableResult
    public func waitForExit() -> Int32 {
        while true {
            if let status { return status }
            var raw: Int32 = 0
            let reaped = waitpid(pid, &raw, 0)
            if reaped == pid {
                exitStatus.withLock { $0 = $0 ?? Self.decode(raw) }
            } else if reaped == -1 && errno != EINTR {
                usleep(10_000)  // another caller reaped it and is recording the status
            }
        }
    }

    public func signal(_ number: Int32) {
        if isRunning { _ = Glibc.kill(pid, number) }
    }

    private static func decode(_ raw: Int32) -> Int32 {
        raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }
}
