import Foundation
import NIOCore

/// Everything the local APNs server remembers: the scripted replies, the requests it received,
/// and its open connections.
actor LocalAPNsState {
    private let check: LocalAPNsRequestCheck
    private let now: @Sendable () -> Date
    private let keepsRequests: Bool

    /// Replies used in order for any device token, before the per-token ones.
    private var nextReplies: [LocalAPNsReply] = []
    /// Replies used in order for one device token.
    private var queuedReplies: [String: [LocalAPNsReply]] = [:]
    /// The reply for a device token once its queue is empty.
    private var fixedReplies: [String: LocalAPNsReply] = [:]
    /// Provider tokens this server no longer accepts, with the 403 it gives them.
    private var refusedTokens: [String: LocalAPNsReply] = [:]

    private(set) var requests: [LocalAPNsReceivedRequest] = []
    private(set) var requestCount = 0
    private(set) var connectionCount = 0
    private var stopped = false
    private var openConnections: [Int: any Channel] = [:]
    /// Streams whose request is being read or handled, over all connections, and the most seen.
    private var openStreamTokens: Set<Int> = []
    private var nextStreamToken = 0
    var openStreams: Int { openStreamTokens.count }
    private(set) var peakOpenStreams = 0
    /// See `LocalAPNsServer.goAway(afterRequestsPerConnection:)`.
    private var goAwayAfter: Int?
    private var requestsPerConnection: [Int: Int] = [:]
    private var highestStreamStarted: [Int: Int] = [:]
    /// The last stream ID of the GOAWAY each connection sent.
    private var goAwayLastStream: [Int: Int] = [:]
    /// While GOAWAYs are scripted, the streams each connection has answered: it is closed once
    /// every stream up to the last one its GOAWAY named has its answer.
    private var answeredStreams: [Int: Set<Int>] = [:]
    private var connectionsToDrop = 0
    private var requestsToHold = 0
    /// Completed by `releaseHeldRequests()`: each held stream then gets its answer.
    private var heldReleases: [EventLoopPromise<Void>] = []
    /// APNs verifies a provider token once and then recognises it; so does this server, which keeps
    /// signature checks off the per-request path.
    private var verifiedTokens: [String: Result<LocalAPNsJWT, LocalAPNsJWT.Failure>] = [:]

    init(expectations: LocalAPNsExpectations, keepsRequests: Bool, now: @escaping @Sendable () -> Date) {
        self.check = LocalAPNsRequestCheck(expectations: expectations)
        self.keepsRequests = keepsRequests
        self.now = now
    }

    // MARK: Scripting

    func enqueueNext(_ replies: [LocalAPNsReply]) {
        nextReplies.append(contentsOf: replies)
    }

    func enqueue(_ replies: [LocalAPNsReply], for deviceToken: String) {
        queuedReplies[deviceToken.lowercased(), default: []].append(contentsOf: replies)
    }

    func setFixedReply(_ reply: LocalAPNsReply?, for deviceToken: String) {
        fixedReplies[deviceToken.lowercased()] = reply
    }

    func refuseTokensSeenSoFar(with reply: LocalAPNsReply) {
        for jwt in verifiedTokens.keys { refusedTokens[jwt] = reply }
    }

    func setGoAway(afterRequestsPerConnection requests: Int?) {
        goAwayAfter = requests
    }

    func dropConnectionAtNextRequest() {
        connectionsToDrop += 1
    }

    func holdNextRequest() {
        requestsToHold += 1
    }

    func keepHeld(until release: EventLoopPromise<Void>) {
        heldReleases.append(release)
    }

    func releaseHeldRequests() {
        for release in heldReleases { release.succeed(()) }
        heldReleases = []
    }

    // MARK: Connections

    /// What the connection does around the request on `streamID`, asked as the client opens it.
    func connectionAction(forRequestOn connectionID: Int, streamID: Int) -> LocalAPNsConnectionAction {
        // After GOAWAY a server processes nothing above the last stream it named.
        if let last = goAwayLastStream[connectionID], streamID > last { return .ignoreAfterGoAway }
        if connectionsToDrop > 0 {
            connectionsToDrop -= 1
            return .dropWithoutAnswer
        }
        if requestsToHold > 0 {
            requestsToHold -= 1
            return .holdWithoutAnswer
        }
        requestsPerConnection[connectionID, default: 0] += 1
        highestStreamStarted[connectionID] = max(highestStreamStarted[connectionID] ?? 0, streamID)
        if let goAwayAfter, requestsPerConnection[connectionID] == goAwayAfter {
            // The last stream named is the highest one already being processed, as RFC 9113
            // asks, so no processed request is ever one the client thinks was dropped.
            let last = highestStreamStarted[connectionID] ?? streamID
            goAwayLastStream[connectionID] = last
            return .goAwayWithAnswer(lastStreamID: last)
        }
        return .keepOpen
    }

    /// Notes that the answer on `streamID` was written. True when it was the last answer owed
    /// after the connection's GOAWAY, every stream up to the last one named having its answer: a
    /// server closes the connection only then, however long the answers take.
    func answerWritten(streamID: Int, on connectionID: Int) -> Bool {
        guard goAwayAfter != nil else { return false }
        answeredStreams[connectionID, default: []].insert(streamID)
        guard let last = goAwayLastStream[connectionID], let answered = answeredStreams[connectionID] else { return false }
        // A client's streams have odd ids, opened in order, so each one up to `last` was sent.
        return stride(from: 1, through: last, by: 2).allSatisfy(answered.contains)
    }

    /// A token for `streamFinished`.
    func streamOpened() -> Int {
        nextStreamToken += 1
        openStreamTokens.insert(nextStreamToken)
        peakOpenStreams = max(peakOpenStreams, openStreams)
        return nextStreamToken
    }

    /// Called before the answer is written, so a client that opens its next stream as soon as it
    /// has an answer is never counted twice. A stream finished twice (its answer's write failed
    /// after it was counted) is counted once.
    func streamFinished(_ token: Int) {
        openStreamTokens.remove(token)
    }

    func connectionOpened(_ channel: any Channel) -> Int {
        connectionCount += 1
        openConnections[connectionCount] = channel
        return connectionCount
    }

    func connectionClosed(_ id: Int) {
        openConnections[id] = nil
        answeredStreams[id] = nil
    }

    /// True the first time only, so stopping twice is harmless.
    func markStopped() -> Bool {
        defer { stopped = true }
        return !stopped
    }

    func closeAllConnections() -> [any Channel] {
        defer { openConnections = [:] }
        return Array(openConnections.values)
    }

    // MARK: Requests

    /// Checks a request, picks the reply and records both.
    func handle(method: String, path: String, headers: [String: String], body: Data, connectionID: Int) -> LocalAPNsReply {
        let jwt = Self.bearerToken(headers["authorization"])
        let token = jwt.map(verified)
        let problem = check.problem(method: method, path: path, headers: headers, body: body, token: token, now: now())
        let deviceToken = LocalAPNsRequestCheck.deviceToken(inPath: path)
        let reply = problem ?? jwt.flatMap { refusedTokens[$0] } ?? scriptedReply(for: deviceToken?.lowercased() ?? "")

        requestCount += 1
        if keepsRequests {
            requests.append(LocalAPNsReceivedRequest(
                connectionID: connectionID, method: method, path: path, deviceToken: deviceToken,
                headers: headers, body: body, jwt: jwt, verifiedToken: try? token?.get(),
                payload: LocalAPNsPayload(json: body), reply: reply
            ))
        }
        return reply
    }

    private func verified(_ jwt: String) -> Result<LocalAPNsJWT, LocalAPNsJWT.Failure> {
        if let known = verifiedTokens[jwt] { return known }
        let result = Result { () throws(LocalAPNsJWT.Failure) in try LocalAPNsJWT.verify(jwt, with: check.expectations.publicKey) }
        verifiedTokens[jwt] = result
        return result
    }

    private func scriptedReply(for deviceToken: String) -> LocalAPNsReply {
        if !nextReplies.isEmpty { return nextReplies.removeFirst() }
        if var queue = queuedReplies[deviceToken], !queue.isEmpty {
            let reply = queue.removeFirst()
            queuedReplies[deviceToken] = queue
            return reply
        }
        return fixedReplies[deviceToken] ?? .success
    }

    /// The token in `authorization: bearer <token>`; nil when the header is missing or of another scheme.
    private static func bearerToken(_ header: String?) -> String? {
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        return String(header.dropFirst(7))
    }
}

/// What the local APNs server does with a connection around one request.
enum LocalAPNsConnectionAction: Equatable {
    case keepOpen
    /// Sends GOAWAY naming `lastStreamID` (this request's stream or a later one already being
    /// processed), answers, then closes.
    case goAwayWithAnswer(lastStreamID: Int)
    /// The stream is above the last one of a GOAWAY already sent: neither processed, recorded
    /// nor answered.
    case ignoreAfterGoAway
    /// Closes the connection instead of answering.
    case dropWithoutAnswer
    /// Never answers; the stream stays open until the client resets it or the connection closes.
    case holdWithoutAnswer
}
