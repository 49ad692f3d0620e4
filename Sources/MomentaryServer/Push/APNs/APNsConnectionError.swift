/// Why a notification got no answer from APNs. All but `shutDown` are reported to the
/// dispatcher as "APNs could not be reached" (retryable): the notification itself was fine.
enum APNsConnectionError: Error, CustomStringConvertible {
    /// `APNsChannel.shutdown()` was called.
    case shutDown
    /// No answer (or no free stream) before the request's deadline.
    case timedOut
    /// The server closed the connection, or reset the stream, before answering.
    case closedBeforeAnswer
    /// The notification never reached APNs' processing: its connection went away before it
    /// was sent, or the server refused its stream (REFUSED_STREAM, or above GOAWAY's last
    /// stream ID). Sending it again cannot deliver it twice.
    case notSent
    /// The TLS and HTTP/2 handshakes did not end with the server's SETTINGS in time.
    case noHTTP2Settings
    /// The answer had no `:status`.
    case malformedAnswer

    var description: String {
        switch self {
        case .shutDown: "the APNs channel has been shut down"
        case .timedOut: "no answer before the request's deadline"
        case .closedBeforeAnswer: "the connection or stream closed before APNs answered"
        case .notSent: "the connection went away before the notification was processed"
        case .noHTTP2Settings: "the server did not open an HTTP/2 session (no SETTINGS received)"
        case .malformedAnswer: "the answer had no HTTP/2 :status"
        }
    }
}
