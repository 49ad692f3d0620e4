import Foundation
import MomentaryCore

/// Participant secrets: 20 random letters and digits (about 119 bits), stored only as
/// `SecretHash`: guessing 119 bits is out of reach however fast each guess is.
enum ParticipantSecret {
    static let length = 20

    static func generate() -> String {
        SecretCode.generate(length: length, from: .alphanumeric)
    }

}
