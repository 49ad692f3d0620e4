import Foundation
import Vapor

/// Checks a sign-in's password. An unknown email is checked against a decoy hash of the same
/// cost, so a wrong email takes as long as a wrong password and sign-in timing does not tell
/// which emails have accounts.
enum ResearcherPasswords {
    /// A hash of a random secret nobody knows, made once with the cost every account's hash has.
    static let decoyHash: String = (try? Bcrypt.hash(UUID().uuidString + UUID().uuidString)) ?? ""

    /// The hash this attempt is verified against: the account's, or the decoy.
    static func hashToVerify(for researcher: Researcher?) -> String {
        researcher?.passwordHash ?? decoyHash
    }

    /// Whether `password` is this researcher's; always false without a researcher, after the
    /// same work.
    static func matches(_ password: String, of researcher: Researcher?) throws -> Bool {
        let verified = try Bcrypt.verify(password, created: hashToVerify(for: researcher))
        return researcher != nil && verified
    }
}
