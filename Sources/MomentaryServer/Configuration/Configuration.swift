import Foundation

/// Everything the server reads from its environment, in one place, so every setting and its default
/// can be found here and a wrong value is refused by name at start, not met later in a request.
///
/// Each variable is documented in the README's configuration table; defaults are chosen so that
/// `momentary serve` works on a fresh machine with an embedded SQLite file.
public struct Configuration: Sendable {
    /// Where the database is.
    public enum Database: Sendable, Equatable {
        /// The embedded default: one SQLite file inside the data directory (WAL mode).
        case sqlite(path: String)
        /// A PostgreSQL server given by URL (`DATABASE_URL`), for production and several workers.
        case postgres(url: String)

        public var isEmbedded: Bool {
            if case .sqlite = self { true } else { false }
        }
    }

    /// How log lines are written.
    public enum LogFormat: String, Sendable {
        case text, json
    }

    /// Holds the SQLite file (when embedded), photos and passive-data batches.
    public var dataDirectory: URL
    public var database: Database
    /// `development` or `production`; production defaults to JSON logs.
    public var environmentName: String
    public var logFormat: LogFormat
    /// PostgreSQL schema to use instead of `public` (`DATABASE_SCHEMA`); tests give each app its own.
    public var postgresSchema: String?
    /// `MOMENTARY_METRICS_TOKEN`: when set, `/metrics` answers only requests bearing it; in
    /// production `/metrics` is not served without one.
    public var metricsToken: String?
    /// `MOMENTARY_IDLE_TIMEOUT_SECONDS`: a connection that sends and receives nothing for this
    /// long is closed, so idle connections cannot pile up until the server runs out of them.
    public var idleTimeoutSeconds: Int

    public static let defaultIdleTimeoutSeconds = 60
    /// `MOMENTARY_HEADER_TIMEOUT_SECONDS`: a request's headers must be complete this long after
    /// its first byte, and its body must bring at least 1 KiB in every stretch this long
    /// (`FrontDoor`), so clients trickling bytes cannot hold connections.
    public var headerTimeoutSeconds = 10
    /// `MOMENTARY_MAX_CONNECTIONS` and `MOMENTARY_MAX_CONNECTIONS_PER_ADDRESS`: connections open
    /// at once, in all and from one client address (trusted proxies excepted); more are answered
    /// 503 and closed.
    public var maxConnections = 4_096
    public var maxConnectionsPerAddress = 256
    /// `serve --metrics-port`: when set, `/metrics` is served on that port only (with no token).
    public var metricsPort: Int?
    /// `MOMENTARY_PUBLIC_STATISTICS_SECONDS`: how often `serve` refreshes the public statistics of
    /// the studies that show them.
    public var publicStatisticsSeconds: Int = defaultPublicStatisticsSeconds
    public static let defaultPublicStatisticsSeconds = 600
    /// `MOMENTARY_TRUSTED_PROXIES`: addresses of reverse proxies whose `X-Forwarded-For` names the
    /// client (`ClientAddress`); empty: every peer is the client.
    public var trustedProxies: Set<String> = []
    /// `MOMENTARY_REQUIRE_SECOND_FACTOR=1`: researchers without two-step sign-in must set it up
    /// before any other page opens.
    public var requireSecondFactor = false
    /// `MOMENTARY_STUDY_REGISTRATION_LIMIT`: registrations one study takes in ten minutes from
    /// all addresses together; more are refused with 429 until earlier ones age out.
    public var studyRegistrationLimit = defaultStudyRegistrationLimit
    public static let defaultStudyRegistrationLimit = 1_000
    /// `MOMENTARY_STREAM_BATCH_LIMIT_MB` and `MOMENTARY_STREAM_DAILY_LIMIT_MB`: passive data one
    /// batch may hold and one participant may send in 24 hours (`StreamUploadLimits`).
    var streamLimits = StreamUploadLimits.standard
    /// `MOMENTARY_MIN_FREE_DISK_MB`: below this much free space in the data directory, `/healthz`
    /// answers 503, so a load balancer or an operator's check notices before writes start failing.
    public var minimumFreeDiskMegabytes = defaultMinimumFreeDiskMegabytes
    public static let defaultMinimumFreeDiskMegabytes = 100
    /// Weather, air quality and pollen for responses (`EnvironmentSettings`).
    public var environmentSettings = EnvironmentSettings()
    /// Outbound email (`MOMENTARY_SMTP_URL`, `MOMENTARY_MAIL_FROM`); nil: the server sends none.
    public var mail: MailSettings?

    public init(
        dataDirectory: URL, database: Database, environmentName: String = "development",
        logFormat: LogFormat = .text, postgresSchema: String? = nil, metricsToken: String? = nil,
        idleTimeoutSeconds: Int = defaultIdleTimeoutSeconds
    ) {
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.dataDirectory = dataDirectory
        self.database = database
        self.environmentName = environmentName
        self.logFormat = logFormat
        self.postgresSchema = postgresSchema
        self.metricsToken = metricsToken
    }

    /// Name of the SQLite file inside the data directory.
    public static let sqliteFileName = "momentary.sqlite"
    public static let defaultDataDirectory = "./data"

    /// Reads the configuration from environment variables, with an optional data directory given on
    /// the command line (`--data`), which wins over `MOMENTARY_DATA_DIR`.
    ///
    /// Validates what can be checked without side effects beyond creating the data directory:
    /// the directory must be writable and `DATABASE_URL`, when set, must be a well-formed PostgreSQL URL.
    public static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        dataDirectoryOverride: String? = nil
    ) throws(ConfigurationError) -> Configuration {
        let dataPath = dataDirectoryOverride ?? environment["MOMENTARY_DATA_DIR"].nonEmpty ?? defaultDataDirectory
        let dataDirectory = URL(fileURLWithPath: dataPath).standardizedFileURL
        try prepareWritableDirectory(dataDirectory)

        let database: Database
        if let url = environment["DATABASE_URL"].nonEmpty {
            try validatePostgresURL(url)
            database = .postgres(url: url)
        } else {
            database = .sqlite(path: dataDirectory.appendingPathComponent(sqliteFileName).path)
        }

        let environmentName = try environmentName(from: environment)
        let logFormat = try logFormat(from: environment)
        var schema = environment["DATABASE_SCHEMA"].nonEmpty
        if let name = schema, !name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
            throw .invalidValue(variable: "DATABASE_SCHEMA", value: name, expected: "letters, digits and underscores")
        }
        if case .sqlite = database { schema = nil }
        let metricsToken = environment["MOMENTARY_METRICS_TOKEN"].nonEmpty
        if let token = metricsToken, token.count < 16 {
            throw .invalidValue(variable: "MOMENTARY_METRICS_TOKEN", value: "(hidden)", expected: "a secret of at least 16 characters")
        }
        var configuration = Configuration(
            dataDirectory: dataDirectory, database: database, environmentName: environmentName,
            logFormat: logFormat, postgresSchema: schema, metricsToken: metricsToken)
        func read(_ variable: String, into value: inout Int, _ range: ClosedRange<Int>, _ unit: String) throws(ConfigurationError) {
            guard let text = environment[variable].nonEmpty else { return }
            guard let number = Int(text), range.contains(number) else {
                throw .invalidValue(variable: variable, value: text, expected:
                    "a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound)")
            }
            value = number
        }
        try read("MOMENTARY_IDLE_TIMEOUT_SECONDS", into: &configuration.idleTimeoutSeconds, 1...3600, "seconds")
        try read("MOMENTARY_HEADER_TIMEOUT_SECONDS", into: &configuration.headerTimeoutSeconds, 1...300, "seconds")
        try read("MOMENTARY_MAX_CONNECTIONS", into: &configuration.maxConnections, 1...1_000_000, "connections")
        try read("MOMENTARY_MAX_CONNECTIONS_PER_ADDRESS", into: &configuration.maxConnectionsPerAddress, 1...1_000_000, "connections")
        try read("MOMENTARY_PUBLIC_STATISTICS_SECONDS", into: &configuration.publicStatisticsSeconds, 10...86_400, "seconds")
        try read("MOMENTARY_MIN_FREE_DISK_MB", into: &configuration.minimumFreeDiskMegabytes, 0...1_048_576, "MiB")
        try read("MOMENTARY_STUDY_REGISTRATION_LIMIT", into: &configuration.studyRegistrationLimit, 1...1_000_000, "registrations")
        var batchMegabytes = StreamUploadLimits.defaultBatchMegabytes, dailyMegabytes = StreamUploadLimits.defaultDailyMegabytes
        try read("MOMENTARY_STREAM_BATCH_LIMIT_MB", into: &batchMegabytes, 1...1_024, "MiB")
        try read("MOMENTARY_STREAM_DAILY_LIMIT_MB", into: &dailyMegabytes, 1...1_048_576, "MiB")
        configuration.streamLimits = StreamUploadLimits(batchBytes: batchMegabytes << 20, dailyBytes: dailyMegabytes << 20)
        configuration.environmentSettings = try EnvironmentSettings.load(from: environment)
        configuration.mail = try MailSettings.load(from: environment)
        if let text = environment["MOMENTARY_TRUSTED_PROXIES"].nonEmpty {
            let addresses = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if let wrong = addresses.first(where: { !ClientAddress.isAddress($0) }) {
                throw .invalidValue(variable: "MOMENTARY_TRUSTED_PROXIES", value: wrong, expected: "IP addresses separated by commas, such as 127.0.0.1,::1")
            }
            configuration.trustedProxies = Set(addresses)
        }
        if let text = environment["MOMENTARY_REQUIRE_SECOND_FACTOR"].nonEmpty {
            guard ["0", "1"].contains(text) else {
                throw .invalidValue(variable: "MOMENTARY_REQUIRE_SECOND_FACTOR", value: text, expected: "1 (required) or 0")
            }
            configuration.requireSecondFactor = text == "1"
        }
        return configuration
    }

    static func environmentName(from environment: [String: String]) throws(ConfigurationError) -> String {
        let name = environment["MOMENTARY_ENV"].nonEmpty ?? "development"
        guard ["development", "production", "testing"].contains(name) else {
            throw .invalidValue(variable: "MOMENTARY_ENV", value: name, expected: "development, production or testing")
        }
        return name
    }

    /// The log format, read before anything else so the first log line is already in it.
    public static func logFormat(from environment: [String: String]) throws(ConfigurationError) -> LogFormat {
        if let text = environment["MOMENTARY_LOG_FORMAT"].nonEmpty {
            guard let format = LogFormat(rawValue: text) else {
                throw .invalidValue(variable: "MOMENTARY_LOG_FORMAT", value: text, expected: "text or json")
            }
            return format
        }
        return try environmentName(from: environment) == "production" ? .json : .text
    }

    /// Creates the directory if needed and proves it writable by writing and removing a probe file,
    /// so a bad directory fails at start-up with one sentence instead of at the first upload.
    static func prepareWritableDirectory(_ directory: URL) throws(ConfigurationError) {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: directory.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw .dataDirectoryUnusable(path: directory.path, reason: "it is a file, not a directory")
        }
        do {
            try files.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .dataDirectoryUnusable(path: directory.path, reason: "it cannot be created")
        }
        let probe = directory.appendingPathComponent(".write-probe-\(UUID().uuidString)")
        guard files.createFile(atPath: probe.path, contents: Data()) else {
            throw .dataDirectoryUnusable(path: directory.path, reason: "it is not writable")
        }
        try? files.removeItem(at: probe)
    }

    static func validatePostgresURL(_ text: String) throws(ConfigurationError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme else {
            throw .malformedDatabaseURL(reason: "it is not a URL")
        }
        guard ["postgres", "postgresql", "postgres+tcp", "postgresql+tcp"].contains(scheme.lowercased()) else {
            throw .malformedDatabaseURL(reason: "its scheme is “\(scheme)”, expected postgres://")
        }
        guard let host = components.host, !host.isEmpty else {
            throw .malformedDatabaseURL(reason: "it names no host")
        }
        let databaseName = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        guard !databaseName.isEmpty else {
            throw .malformedDatabaseURL(reason: "it names no database (postgres://user:password@host:5432/DATABASE)")
        }
        guard components.user?.isEmpty == false else {
            throw .malformedDatabaseURL(reason: "it names no user (postgres://USER:password@host:5432/database)")
        }
    }
}

extension Optional where Wrapped == String {
    /// The string unless it is missing or empty: an empty environment variable counts as unset.
    var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}
