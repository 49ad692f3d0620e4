#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Each connection through the front door takes three file descriptors (the client's socket and
/// both ends of the relay to Vapor), so the process's limit on open files bounds how many
/// connections it can hold before `accept` starts failing for everyone.
enum OpenFileLimit {
    /// Descriptors kept back for the database, uploads, logs and the listeners themselves.
    static let reserved = 256
    static let perConnection = 3

    /// Raises the soft limit to the hard one (as servers usually do; the soft default is often
    /// 1024) and returns how many connections fit, at most `wanted`.
    static func connectionsAllowed(wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return wanted }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let fit = (Int(clamping: limit.rlim_cur) - reserved) / perConnection
        return max(1, min(wanted, fit))
    }
}
