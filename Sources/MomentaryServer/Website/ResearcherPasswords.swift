import Foundation
import NIOPosix
import Vapor

/// Hashes and checks researchers' passwords. An unknown email is checked against a decoy hash of
/// the same cost, so a wrong email takes as long as a wrong password and sign-in timing does not
/// tell which emails have accounts.
///
/// Bcrypt is slow on purpose, at Vapor's default cost of 12. It runs on one thread of its own,
/// never on the threads that serve requests, run tasks or talk to SQLite, so sign-ins cannot stall
/// the server's other work.
enum ResearcherPasswords {
    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()

    /// A new hash of `password`.
    static func hash(_ password: String) async throws -> String {
        try await pool.runIfActive { try Bcrypt.hash(password) }
    }

    /// Whether `password` matches `hash`.
    static func verify(_ password: String, hash: String) async throws -> Bool {
        try await pool.runIfActive { try Bcrypt.verify(password, created: hash) }
    }

    /// A hash of a random secret nobody knows, made once with the cost every account's hash has.
    static let decoyHash: String = (try? Bcrypt.hash(UUID().uuidString + UUID().uuidString)) ?? ""

    /// The hash this attempt is verified against: the account's, or the decoy.
    static func hashToVerify(for researcher: Researcher?) -> String {
        researcher?.passwordHash ?? decoyHash
    }

    /// Whether `password` is this researcher's; always false without a researcher, after the
    /// same work.
    static func matches(_ password: String, of researcher: Researcher?) async throws -> Bool {
        let verified = try await verify(password, hash: hashToVerify(for: researcher))
        return researcher != nil && verified
    }
}
